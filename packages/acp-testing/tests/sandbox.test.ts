// Commands in the sandbox over the real SDK client: in auto-edit a command writing inside the
// workspace runs unasked and lands, one writing outside runs unasked, does not land, and its
// card says why; an escalated command is asked with its justification shown. Without a working
// sandbox (bwrap forced missing) commands are asked or refused, and the person is told once
// per session: a `notice` to a client that advertises notices, else a message of the agent.
// Every frame is checked against the schema.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { describeWithSandbox } from '@deepseek-ai/dsh-shell-sandbox/testing'
import { choose } from '../src/client'
import { bashTurns, lastOf, textsOf } from './helpers/commands'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

/**
 * A folder outside any root, and not under /tmp (the sandbox's /tmp is its own; the checkout
 * itself may lie under /tmp, so not beside the sources either).
 */
async function outsideDir(): Promise<string> {
  const base = '/var/tmp/dsh-sandbox-tests'
  await mkdir(base, { recursive: true })
  const dir = await realpath(await mkdtemp(join(base, 'outside-')))
  dirs.push(dir)
  return dir
}

describeWithSandbox('commands in the sandbox in auto-edit', () => {
  it('write inside the workspace unasked, and are kept from writing outside with a card saying why', async () => {
    const outside = await outsideDir()
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      sandbox: true,
      mode: 'auto-edit',
      script: bashTurns('echo x > inside.txt', `echo x > ${outside}/f`),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run them')
    expect(harness.permissionRequests).toHaveLength(0)
    expect(existsSync(join(harness.workspace, 'inside.txt'))).toBe(true)
    expect(existsSync(join(outside, 'f'))).toBe(false)
    const kept = lastOf(harness.updatesOf(sessionId), 'b2')
    expect(kept).toMatchObject({ status: 'failed' })
    const texts = textsOf(kept)
    expect(texts.join('\n')).toContain('Read-only file system')
    expect(texts.at(-1)).toMatch(/^The sandbox kept this command's writes inside the workspace/)
  })

  it('asks about an escalated command with its justification, and runs it outside', async () => {
    const outside = await outsideDir()
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      sandbox: true,
      mode: 'auto-edit',
      answer: choose('allow_once'),
      script: bashTurns({
        command: `echo x > ${outside}/f`,
        escalate: true,
        justification: 'the cache lives outside',
      }),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run it')
    const [request] = harness.permissionRequests
    expect(request?.options.map((option) => option.kind)).toEqual(['allow_once', 'reject_once'])
    const asked = harness
      .updatesOf(sessionId)
      .find((u) => u.sessionUpdate === 'tool_call' && u.toolCallId === 'b1')
    expect(textsOf(asked)[0]).toBe('Run outside the sandbox: the cache lives outside')
    expect(existsSync(join(outside, 'f'))).toBe(true)
  })
})

describe('without a working sandbox', () => {
  const missing = { bwrap: '/nonexistent/bwrap' }

  it('asks in auto-edit and tells the person why once, as a message of the agent', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      sandbox: missing,
      mode: 'auto-edit',
      answer: choose('allow_once'),
      script: bashTurns('touch a.txt', 'touch b.txt'),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run them')
    expect(harness.permissionRequests).toHaveLength(2)
    const messages = harness
      .updatesOf(sessionId)
      .flatMap((u) =>
        u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text'
          ? [u.content.text]
          : [],
      )
      .filter((text) => text.includes('not sandboxed'))
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain('bubblewrap is not installed')
    expect(messages[0]).toContain('sudo apt-get install bubblewrap')
  })

  it('refuses in read-only and tells a client that shows notices with a notice', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      sandbox: missing,
      notices: true,
      mode: 'read-only',
      script: bashTurns('touch a.txt'),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run it')
    expect(harness.permissionRequests).toHaveLength(0)
    expect(existsSync(join(harness.workspace, 'a.txt'))).toBe(false)
    const notices = harness.updatesOf(sessionId).filter((u) => u.sessionUpdate === 'notice')
    expect(notices).toEqual([
      {
        sessionUpdate: 'notice',
        severity: 'warning',
        title: 'Commands are not sandboxed',
        description: expect.stringContaining('in read-only it is refused'),
      },
    ])
    expect(lastOf(harness.updatesOf(sessionId), 'b1')).toMatchObject({ status: 'failed' })
  })
})
