import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { deploy, textOf } from './helpers/deployment'
import type { Deployment } from './helpers/deployment'

let d: Deployment
beforeEach(async () => {
  d = await deploy()
})
afterEach(async () => {
  await d.close()
})

const numbered = (n: number) =>
  Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n'

describe('writing under the read-before-write gate', () => {
  it('creates a new file without a read', async () => {
    const result = await d.run(d.agent('s1'), 'write', { file_path: 'new.txt', content: 'a\nb\n' })
    expect(result.isError).toBe(false)
    expect(textOf(result)).toBe(`Created file ${join(d.dir, 'new.txt')} (2 lines)`)
    expect(await readFile(join(d.dir, 'new.txt'), 'utf8')).toBe('a\nb\n')
    expect(result.details).toEqual({
      path: join(d.dir, 'new.txt'),
      operation: 'create',
      lines: 2,
      change: { oldText: null, newText: 'a\nb\n', line: 1 },
    })
  })

  it('refuses to overwrite a file that was not read', async () => {
    await writeFile(join(d.dir, 'old.txt'), 'keep\n')
    const result = await d.run(d.agent('s1'), 'write', { file_path: 'old.txt', content: 'lost' })
    expect(result.isError).toBe(true)
    expect(result.error).toEqual({ name: 'FsError', code: 'FS_NOT_OBSERVED' })
    expect(textOf(result)).toBe(
      `Error: ${join(d.dir, 'old.txt')} already exists and has not been read in this session. Read it first (any part is enough), then write it.`,
    )
    expect(await readFile(join(d.dir, 'old.txt'), 'utf8')).toBe('keep\n')
  })

  it('overwrites a file after a read', async () => {
    await writeFile(join(d.dir, 'old.txt'), 'before\n')
    const agent = d.agent('s1')
    expect((await d.run(agent, 'read', { file_path: 'old.txt' })).isError).toBe(false)
    const result = await d.run(agent, 'write', { file_path: 'old.txt', content: 'after\n' })
    expect(textOf(result)).toBe(`Updated file ${join(d.dir, 'old.txt')} (1 line)`)
    expect(await readFile(join(d.dir, 'old.txt'), 'utf8')).toBe('after\n')
  })

  it('refuses a write and an edit after an external change and says to read again', async () => {
    const file = join(d.dir, 'x.txt')
    await writeFile(file, 'one\n')
    const agent = d.agent('s1')
    await d.run(agent, 'read', { file_path: file })
    await writeFile(file, 'changed by someone\n')
    const write = await d.run(agent, 'write', { file_path: file, content: 'mine\n' })
    expect(write.error).toEqual({ name: 'FsError', code: 'FS_STALE_VERSION' })
    expect(textOf(write)).toBe(
      `Error: ${file} has changed since it was last read. Read it again, then retry the write.`,
    )
    const edit = await d.run(agent, 'edit', {
      file_path: file,
      old_string: 'changed',
      new_string: 'x',
    })
    expect(edit.error?.code).toBe('FS_STALE_VERSION')
    expect(textOf(edit)).toContain('Read it again')
    expect(await readFile(file, 'utf8')).toBe('changed by someone\n')
    await d.run(agent, 'read', { file_path: file })
    expect((await d.run(agent, 'write', { file_path: file, content: 'mine\n' })).isError).toBe(
      false,
    )
  })

  it('edits again after its own write without a new read', async () => {
    const agent = d.agent('s1')
    await d.run(agent, 'write', { file_path: 'w.txt', content: 'alpha\nbeta\n' })
    const edit = await d.run(agent, 'edit', {
      file_path: 'w.txt',
      old_string: 'beta',
      new_string: 'gamma',
    })
    expect(textOf(edit)).toBe(
      `Edited file ${join(d.dir, 'w.txt')}: replaced 1 occurrence at line 2.`,
    )
    const again = await d.run(agent, 'edit', {
      file_path: 'w.txt',
      old_string: 'alpha',
      new_string: 'A',
    })
    expect(again.isError).toBe(false)
    expect(await readFile(join(d.dir, 'w.txt'), 'utf8')).toBe('A\ngamma\n')
  })
})

describe('editing', () => {
  it('edits line 12 after reading only a 1-line window', async () => {
    const file = join(d.dir, 'long.txt')
    await writeFile(file, numbered(20))
    const agent = d.agent('s1')
    const read = await d.run(agent, 'read', { file_path: file, offset: 1, limit: 1 })
    expect(textOf(read)).toContain(
      '1: line 1\n\n(Showing lines 1-1 of 20. Use offset=2 to continue.)',
    )
    const edit = await d.run(agent, 'edit', {
      file_path: file,
      old_string: 'line 12\n',
      new_string: 'twelve\n',
    })
    expect(textOf(edit)).toBe(`Edited file ${file}: replaced 1 occurrence at line 12.`)
    expect(edit.details).toMatchObject({ path: file, replacements: 1, line: 12 })
    expect((await readFile(file, 'utf8')).split('\n')[11]).toBe('twelve')
  })

  it('refuses an ambiguous edit and changes nothing', async () => {
    const file = join(d.dir, 'dup.txt')
    await writeFile(file, 'x\nx\nx\n')
    const agent = d.agent('s1')
    await d.run(agent, 'read', { file_path: file })
    const edit = await d.run(agent, 'edit', { file_path: file, old_string: 'x', new_string: 'y' })
    expect(edit.error).toEqual({ name: 'FsError', code: 'FS_AMBIGUOUS_EDIT' })
    expect(textOf(edit)).toContain('3 times')
    expect(textOf(edit)).toContain('replace_all')
    expect(textOf(edit)).not.toContain('replaceAll')
    expect(await readFile(file, 'utf8')).toBe('x\nx\nx\n')
  })

  it('replaces every occurrence with replace_all and says how many', async () => {
    const file = join(d.dir, 'dup.txt')
    await writeFile(file, 'a\nx\nx\nx\n')
    const agent = d.agent('s1')
    await d.run(agent, 'read', { file_path: file })
    const edit = await d.run(agent, 'edit', {
      file_path: file,
      old_string: 'x',
      new_string: 'y',
      replace_all: true,
    })
    expect(textOf(edit)).toBe(`Edited file ${file}: replaced 3 occurrences (the first at line 2).`)
    expect(await readFile(file, 'utf8')).toBe('a\ny\ny\ny\n')
    const card = d.ctx.tools.presentResult(
      'edit',
      { file_path: file, old_string: 'x', new_string: 'y' },
      edit,
    )
    expect(card?.title).toBe(`Edited ${file} (3 replacements)`)
    expect(card?.locations).toEqual([{ path: file, line: 2 }])
  })

  it('refuses an edit of an unread file', async () => {
    await writeFile(join(d.dir, 'u.txt'), 'abc\n')
    const edit = await d.run(d.agent('s1'), 'edit', {
      file_path: 'u.txt',
      old_string: 'a',
      new_string: 'b',
    })
    expect(edit.error).toEqual({ name: 'FsError', code: 'FS_NOT_OBSERVED' })
    expect(textOf(edit)).toBe(
      `Error: ${join(d.dir, 'u.txt')} has not been read in this session. Read it first (any part is enough), then edit it.`,
    )
  })

  it('reports text that is not in the file', async () => {
    const file = join(d.dir, 'n.txt')
    await writeFile(file, 'abc\n')
    const agent = d.agent('s1')
    await d.run(agent, 'read', { file_path: file })
    const edit = await d.run(agent, 'edit', { file_path: file, old_string: 'zzz', new_string: 'y' })
    expect(edit.error).toEqual({ name: 'FsError', code: 'FS_EDIT_NOT_FOUND' })
  })
})

describe('sessions and paths', () => {
  it('keeps two sessions apart', async () => {
    const file = join(d.dir, 'shared.txt')
    await writeFile(file, 'v1\n')
    const reader = d.agent('s1')
    const other = d.agent('s2')
    await d.run(reader, 'read', { file_path: file })
    const write = await d.run(other, 'write', { file_path: file, content: 'v2\n' })
    expect(write.error?.code).toBe('FS_NOT_OBSERVED')
    const edit = await d.run(other, 'edit', { file_path: file, old_string: 'v1', new_string: 'v2' })
    expect(edit.error?.code).toBe('FS_NOT_OBSERVED')
    expect(
      (await d.run(reader, 'edit', { file_path: file, old_string: 'v1', new_string: 'v3' }))
        .isError,
    ).toBe(false)
  })

  it('resolves relative paths against the session cwd, not the process cwd', async () => {
    const workspace = join(d.dir, 'ws')
    await mkdir(workspace)
    const agent = d.agent('s1', workspace)
    const write = await d.run(agent, 'write', { file_path: 'sub/rel.txt', content: 'here\n' })
    expect(textOf(write)).toBe(`Created file ${join(workspace, 'sub/rel.txt')} (1 line)`)
    expect(await readFile(join(workspace, 'sub/rel.txt'), 'utf8')).toBe('here\n')
    expect(process.cwd()).not.toBe(workspace)
    const read = await d.run(agent, 'read', { file_path: 'sub/rel.txt' })
    expect(textOf(read)).toContain(`<path>${join(workspace, 'sub/rel.txt')}</path>`)
  })
})
