// The decision table for commands, cell by cell, on a real stack: each mode, with a working
// sandbox and without one (bwrap forced missing), for a command that writes inside the root
// and outside it, and for the same command escalated. A cell is what the person sees (ran
// unasked, asked, refused) and what the command could write (inside, outside, neither).
// Then escalation's question, background jobs, and the one-time word about a missing sandbox.
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo, Server } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { UNSANDBOXED_TITLE } from '@deepseek-ai/dsh-tool-shell'
import { describeWithSandbox, itWithSandbox } from '../src/testing'
import { sandboxStack, textOf } from './helpers/stack'
import type { SandboxStack } from './helpers/stack'

let stack: SandboxStack | undefined

afterEach(async () => {
  await stack?.cleanup()
  stack = undefined
})

type Seen = 'ran' | 'asked' | 'refused'
type Wrote = 'both' | 'inside' | 'neither' | '-'

interface Cell {
  seen: Seen
  wrote: Wrote
}

async function cell(
  sandbox: boolean,
  mode: string,
  escalate: boolean,
): Promise<{ cell: Cell; stack: SandboxStack }> {
  stack = await sandboxStack(sandbox ? {} : { shell: { bwrap: '/nonexistent/bwrap' } })
  const inside = join(stack.root, 'in.txt')
  const outside = join(stack.outside, 'out.txt')
  const command = `touch ${inside}; touch ${outside}`
  const args = escalate ? { command, escalate, justification: 'writes both' } : { command }
  const result = await stack.call('bash', args, { mode })
  const refused = result.error?.code === 'PERMISSION_DENIED'
  const seen: Seen = refused ? 'refused' : stack.asked.length > 0 ? 'asked' : 'ran'
  const wrote: Wrote = refused
    ? '-'
    : existsSync(outside)
      ? 'both'
      : existsSync(inside)
        ? 'inside'
        : 'neither'
  if (refused) expect(existsSync(inside) || existsSync(outside)).toBe(false)
  return { cell: { seen, wrote }, stack }
}

const c = (seen: Seen, wrote: Wrote): Cell => ({ seen, wrote })

/** [sandbox works, mode, escalated, expected]. */
const TABLE: [boolean, string, boolean, Cell][] = [
  [true, 'ask', false, c('asked', 'both')],
  [true, 'auto-edit', false, c('ran', 'inside')],
  [true, 'read-only', false, c('ran', 'neither')],
  [true, 'full-access', false, c('ran', 'both')],
  [true, 'ask', true, c('asked', 'both')],
  [true, 'auto-edit', true, c('asked', 'both')],
  [true, 'read-only', true, c('asked', 'both')],
  [true, 'full-access', true, c('ran', 'both')],
  [false, 'ask', false, c('asked', 'both')],
  [false, 'auto-edit', false, c('asked', 'both')],
  [false, 'read-only', false, c('refused', '-')],
  [false, 'full-access', false, c('ran', 'both')],
  [false, 'auto-edit', true, c('asked', 'both')],
  [false, 'read-only', true, c('asked', 'both')],
]

describe('the decision table for a command that writes', () => {
  for (const [sandbox, mode, escalate, expected] of TABLE) {
    const test = sandbox ? itWithSandbox : it
    const where = sandbox ? 'with a sandbox' : 'without a sandbox'
    const what = escalate ? 'an escalated command' : 'a command'
    const wrote = expected.wrote === '-' ? 'nothing runs' : `it writes ${expected.wrote}`
    const seen = expected.seen === 'ran' ? 'runs unasked' : `is ${expected.seen}`
    test(`${where}, ${what} in ${mode} ${seen} and ${wrote}`, async () => {
      expect((await cell(sandbox, mode, escalate)).cell).toEqual(expected)
    })
  }
})

describeWithSandbox('the result of a write the sandbox kept in', () => {
  it('ends with one line saying so and how to escalate', async () => {
    stack = await sandboxStack()
    const result = await stack.call('bash', { command: `echo x > ${stack.outside}/f` })
    const lines = textOf(result).trim().split('\n')
    expect(lines.at(-3)).toContain('Read-only file system')
    expect(lines.at(-2)).toMatch(/^exit code [1-9]/)
    expect(lines.at(-1)).toMatch(/sandbox kept this command's writes inside the workspace/)
    expect(lines.at(-1)).toContain('escalate: true')
    expect(result.isError).toBe(true)
  })

  it('says nothing of the sandbox when no write was kept in', async () => {
    stack = await sandboxStack()
    const result = await stack.call('bash', { command: 'echo x > ok.txt' })
    expect(textOf(result).trim()).toBe('exit code 0')
  })
})

describeWithSandbox('escalation', () => {
  it('shows the justification in the question and offers no always option', async () => {
    stack = await sandboxStack()
    const result = await stack.call('bash', {
      command: `touch ${stack.outside}/made`,
      escalate: true,
      justification: 'the build writes its cache in the outside folder',
    })
    expect(textOf(result)).toContain('exit code 0')
    const request = stack.asked[0]
    const preview = request?.preview.map((block) => ('text' in block ? block.text : ''))
    expect(preview?.[0]).toBe(
      'Run outside the sandbox: the build writes its cache in the outside folder',
    )
    expect(request?.options.map((option) => option.kind)).toEqual(['allow_once', 'reject_once'])
    expect(existsSync(join(stack.outside, 'made'))).toBe(true)
  })

  it('without a justification is refused with what to add, and nothing runs', async () => {
    stack = await sandboxStack()
    const result = await stack.call('bash', {
      command: `touch ${stack.outside}/made`,
      escalate: true,
    })
    expect(textOf(result)).toContain('justification')
    expect(stack.asked).toHaveLength(0)
    expect(existsSync(join(stack.outside, 'made'))).toBe(false)
  })
})

describeWithSandbox('background jobs', () => {
  it('run in the sandbox their starting call was given', async () => {
    stack = await sandboxStack()
    const command = `echo in > job-in.txt; echo out > ${stack.outside}/job-out.txt; echo done`
    const started = await stack.call('bash', { command, run_in_background: true })
    expect(stack.asked).toHaveLength(0)
    const jobId = /Started background job (\S+)\./.exec(textOf(started))?.[1] ?? ''
    let output = ''
    for (let tries = 0; tries < 100 && !output.includes('ended:'); tries++) {
      output += textOf(await stack.call('job_output', { job_id: jobId }))
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(output).toContain(`job ${jobId} ended: exit code 0`)
    expect(output).toContain('Read-only file system')
    expect(readFileSync(join(stack.root, 'job-in.txt'), 'utf8')).toBe('in\n')
    expect(existsSync(join(stack.outside, 'job-out.txt'))).toBe(false)
  })
})

describeWithSandbox('the network of a sandboxed command', () => {
  let server: Server | undefined

  afterEach(async () => {
    await new Promise((resolve) =>
      server === undefined ? resolve(undefined) : server.close(resolve),
    )
    server = undefined
  })

  async function connectFrom(sandboxNetwork: boolean): Promise<string> {
    server = createServer((socket) => socket.end('hello\n'))
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    stack = await sandboxStack({ sandboxNetwork })
    const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`
    return textOf(await stack.call('bash', { command }))
  }

  it('is off unless the app allows it: a connect to 127.0.0.1 fails', async () => {
    const text = await connectFrom(false)
    expect(text).not.toContain('hello')
    expect(text).toMatch(/exit code [1-9]/)
  })

  it('is on with sandboxNetwork (the app’s --sandbox-network): the connect works', async () => {
    expect(await connectFrom(true)).toBe('hello\nexit code 0')
  })
})

describe('without a working sandbox', () => {
  it('says why and how to install bubblewrap, once per session', async () => {
    stack = await sandboxStack({ shell: { bwrap: '/nonexistent/bwrap' } })
    expect(stack.shell.unavailable).toContain('bubblewrap is not installed')
    await stack.call('bash', { command: 'touch a.txt' }, { mode: 'auto-edit' })
    await stack.call('bash', { command: 'touch b.txt' }, { mode: 'auto-edit' })
    await stack.call('bash', { command: 'touch c.txt' }, { mode: 'read-only' })
    expect(stack.notices.map((told) => told.session)).toEqual([
      'session-auto-edit',
      'session-read-only',
    ])
    const notice = stack.notices[0]?.notice
    expect(notice?.title).toBe(UNSANDBOXED_TITLE)
    expect(notice?.description).toContain('sudo apt-get install bubblewrap')
  })

  it('says it for a read-only command in ask too, and nothing in full-access', async () => {
    stack = await sandboxStack({ shell: { bwrap: '/nonexistent/bwrap' } })
    await stack.call('bash', { command: 'touch a.txt' }, { mode: 'ask' })
    await stack.call('bash', { command: 'touch a.txt' }, { mode: 'full-access' })
    expect(stack.notices).toEqual([])
    await stack.call('bash', { command: 'ls' }, { mode: 'ask' })
    await stack.call('bash', { command: 'ls' }, { mode: 'ask' })
    expect(stack.notices.map((told) => told.session)).toEqual(['session-ask'])
  })
})

describeWithSandbox('a command that only reads', () => {
  /** [mode, how it is confined: what `start` was given]. */
  const READS: [string, 'read-only' | 'workspace' | 'none'][] = [
    ['ask', 'read-only'],
    ['auto-edit', 'workspace'],
    ['read-only', 'read-only'],
    ['full-access', 'none'],
  ]
  for (const [mode, expected] of READS) {
    it(`runs unasked in ${mode}, confined: ${expected}`, async () => {
      stack = await sandboxStack()
      const start = vi.spyOn(stack.shell, 'start')
      const result = await stack.call('bash', { command: 'ls' }, { mode })
      expect(textOf(result)).toContain('exit code 0')
      expect(stack.asked).toEqual([])
      const confine = start.mock.calls[0]?.[0].confine
      const level =
        confine === undefined ? 'none' : confine.writable.length ? 'workspace' : 'read-only'
      expect(level).toBe(expected)
    })
  }

  it('in ask, once the person approved a command that writes, that one runs unconfined', async () => {
    stack = await sandboxStack()
    const start = vi.spyOn(stack.shell, 'start')
    await stack.call('bash', { command: `touch ${stack.outside}/approved` }, { mode: 'ask' })
    expect(stack.asked).toHaveLength(1)
    expect(start.mock.calls[0]?.[0].confine).toBeUndefined()
    expect(existsSync(join(stack.outside, 'approved'))).toBe(true)
  })
})
