// Previews of write and edit on the real disk: the diff of exactly what the call would do,
// worked out without changing a byte, and the call's own error for a call that cannot land.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { deploy } from './helpers/deployment'
import type { Deployment } from './helpers/deployment'

let d: Deployment
/** One session for the whole test: the policy keys what it observed on the session object. */
let agent: ReturnType<Deployment['agent']>
beforeEach(async () => {
  d = await deploy()
  agent = d.agent('s1')
})
afterEach(async () => {
  await d.close()
})

const preview = (name: string, args: unknown) =>
  d.ctx.tools.preview({ callId: 'p1', name, arguments: args, session: agent.session, agent })

const failure = async (work: Promise<unknown>) => {
  try {
    await work
  } catch (error) {
    return error as { code: string; message: string }
  }
  throw new Error('the preview did not fail')
}

describe('a write preview', () => {
  it('shows a new file against null', async () => {
    expect(await preview('write', { file_path: 'new.txt', content: 'a\nb\n' })).toEqual([
      { type: 'diff', path: join(d.dir, 'new.txt'), oldText: null, newText: 'a\nb\n' },
    ])
  })

  it('shows an overwrite against the current text and leaves the file as it was', async () => {
    await writeFile(join(d.dir, 'a.txt'), 'old\n')
    await d.run(agent, 'read', { file_path: 'a.txt' })
    expect(await preview('write', { file_path: 'a.txt', content: 'new\n' })).toEqual([
      { type: 'diff', path: join(d.dir, 'a.txt'), oldText: 'old\n', newText: 'new\n' },
    ])
    expect(await readFile(join(d.dir, 'a.txt'), 'utf8')).toBe('old\n')
  })

  it('fails as the write would over an unread or a changed file', async () => {
    await writeFile(join(d.dir, 'a.txt'), 'old\n')
    const unread = await failure(preview('write', { file_path: 'a.txt', content: 'x' }))
    expect(unread.code).toBe('FS_NOT_OBSERVED')
    expect(unread.message).toContain('Read it first')
    await d.run(agent, 'read', { file_path: 'a.txt' })
    await writeFile(join(d.dir, 'a.txt'), 'changed by someone else\n')
    const stale = await failure(preview('write', { file_path: 'a.txt', content: 'x' }))
    expect(stale.code).toBe('FS_STALE_VERSION')
  })
})

describe('an edit preview', () => {
  it('shows the hunk the replacement would produce, without writing', async () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `line ${i + 1}\n`).join('')
    await writeFile(join(d.dir, 'big.txt'), text)
    await d.run(agent, 'read', { file_path: 'big.txt', limit: 1 })
    const [diff] = (await preview('edit', {
      file_path: 'big.txt',
      old_string: 'line 5000\n',
      new_string: 'LINE 5000\n',
    }))!
    expect(diff).toEqual({
      type: 'diff',
      path: join(d.dir, 'big.txt'),
      oldText: 'line 4997\nline 4998\nline 4999\nline 5000\nline 5001\nline 5002\nline 5003\n',
      newText: 'line 4997\nline 4998\nline 4999\nLINE 5000\nline 5001\nline 5002\nline 5003\n',
    })
    expect(await readFile(join(d.dir, 'big.txt'), 'utf8')).toBe(text)
  })

  it('fails as the edit would: unread, stale, no match, ambiguous, no change', async () => {
    await writeFile(join(d.dir, 'a.txt'), 'x\nx\ny\n')
    const args = (old_string: string, new_string = 'z') => ({
      file_path: 'a.txt',
      old_string,
      new_string,
    })
    expect((await failure(preview('edit', args('y')))).code).toBe('FS_NOT_OBSERVED')
    await d.run(agent, 'read', { file_path: 'a.txt' })
    expect((await failure(preview('edit', args('q')))).code).toBe('FS_EDIT_NOT_FOUND')
    const ambiguous = await failure(preview('edit', args('x')))
    expect(ambiguous.code).toBe('FS_AMBIGUOUS_EDIT')
    expect(ambiguous.message).toContain('replace_all')
    expect((await failure(preview('edit', args('y', 'y')))).code).toBe('FS_INVALID_EDIT')
    await writeFile(join(d.dir, 'a.txt'), 'x\nx\ny\nmore\n')
    expect((await failure(preview('edit', args('y')))).code).toBe('FS_STALE_VERSION')
  })
})
