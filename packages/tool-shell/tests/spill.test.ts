// The whole output of cut results, on the real disk: a private folder made by the agent and
// held open, files made without following links (a link planted at the next name, or the
// folder swapped for a link, gets nothing), bounded per call and per session, deleted with
// the session and when the tools go away.
import { existsSync, lstatSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SpillStore } from '../src/spill'
import { shellStack, textOf } from './helpers/stack'
import type { ShellStack } from './helpers/stack'

let stack: ShellStack | undefined

afterEach(async () => {
  await stack?.cleanup()
  stack = undefined
})

const fileIn = (text: string) => /(?:is|are) in (\S+?);? /.exec(text)?.[1] as string

describe('the spill folder', () => {
  it('is private to the process, and a link planted at the next name is not written through', async () => {
    stack = await shellStack()
    const first = fileIn(textOf(await stack.call('bash', { command: 'seq 1 20000' })))
    const folder = join(first, '..')
    expect(join(folder, '..')).toBe(stack.outputDir)
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    const target = join(stack.root, 'outside.txt')
    await writeFile(target, 'kept\n')
    await symlink(target, join(folder, 'session-full-access-next.log'))
    const text = textOf(await stack.call('bash', { command: 'seq 1 20000' }, { callId: 'next' }))
    expect(readFileSync(target, 'utf8')).toBe('kept\n')
    expect(fileIn(text)).toBe(join(folder, 'session-full-access-next-2.log'))
    expect(readFileSync(fileIn(text), 'utf8').split('\n').at(-2)).toBe('20000')
  })

  it('swapped for a link, still gets the output itself; nothing lands at the link', async () => {
    stack = await shellStack()
    const folder = join(fileIn(textOf(await stack.call('bash', { command: 'seq 1 20000' }))), '..')
    const elsewhere = join(stack.root, 'elsewhere')
    await mkdir(elsewhere)
    await rename(folder, `${folder}-moved`)
    await symlink(elsewhere, folder)
    await stack.call('bash', { command: 'seq 1 20000' })
    expect(readdirSync(elsewhere)).toEqual([])
    expect(readdirSync(`${folder}-moved`)).toHaveLength(2)
  })

  it('is made when the tools start, and is gone once they are disposed', async () => {
    stack = await shellStack()
    expect(lstatSync(stack.outputDir).isDirectory()).toBe(true)
    const file = fileIn(textOf(await stack.call('bash', { command: 'seq 1 20000' })))
    await stack.disposeTools()
    expect(existsSync(file)).toBe(false)
    expect(readdirSync(stack.outputDir)).toEqual([])
  })
})

describe('the spill limits', () => {
  it('stop a long output’s file at the per-call limit, and the result says so', async () => {
    stack = await shellStack({ spillCallBytes: 100_000 })
    const text = textOf(await stack.call('bash', { command: 'yes | head -c 3000000' }))
    expect(text).toContain('the first 100000 bytes of the output (3000000 characters in all)')
    expect(statSync(fileIn(text)).size).toBe(100_000)
  })

  it('stop a session’s files at the per-session limit, then keep none', async () => {
    stack = await shellStack({ spillCallBytes: 100_000, spillSessionBytes: 150_000 })
    const sizes: number[] = []
    for (let i = 0; i < 2; i++) {
      const text = textOf(await stack.call('bash', { command: 'yes | head -c 300000' }))
      sizes.push(statSync(fileIn(text)).size)
    }
    expect(sizes).toEqual([100_000, 50_000])
    const third = textOf(await stack.call('bash', { command: 'yes | head -c 300000' }))
    expect(third).toContain(
      'the rest was not kept: this session’s spilled output reached its limit',
    )
    expect(third).toMatch(/^(y\n)+\n\n\[… \d+ characters left out; the rest was not kept/)
  })

  it('delete a session’s files when the session is released', async () => {
    stack = await shellStack()
    const file = fileIn(textOf(await stack.call('bash', { command: 'seq 1 20000' })))
    expect(existsSync(file)).toBe(true)
    stack.lifetime.abort()
    expect(existsSync(file)).toBe(false)
  })
})

describe('a spill store', () => {
  it('keeps one session’s files when another is dropped', () => {
    const base = join(process.env.TMPDIR ?? '/tmp', `dsh-spill-${process.pid}-${Date.now()}`)
    const store = new SpillStore(base, { callBytes: 10, sessionBytes: 100 })
    try {
      const a = store.open('a', 'one')!
      const b = store.open('b', 'one')!
      a.write('0123456789abc')
      b.write('x')
      a.close()
      b.close()
      expect(a).toMatchObject({ kept: 10, cut: true })
      store.dropSession('a')
      expect(existsSync(a.path)).toBe(false)
      expect(readFileSync(b.path, 'utf8')).toBe('x')
    } finally {
      store.dispose()
    }
    expect(readdirSync(base)).toEqual([])
  })
})
