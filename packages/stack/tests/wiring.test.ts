import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import { deploy, textOf } from './helpers/deployment'
import type { Deployment } from './helpers/deployment'

let d: Deployment | undefined
afterEach(async () => {
  vi.restoreAllMocks()
  await d?.close()
  d = undefined
})

describe('the bare deployment', () => {
  it('writes and edits unconditionally without the policy', async () => {
    d = await deploy({ policy: false })
    const file = join(d.dir, 'free.txt')
    await writeFile(file, 'mine\n')
    const write = await d.run(d.agent('s1'), 'write', { file_path: file, content: 'theirs\n' })
    expect(textOf(write)).toBe(`Updated file ${file} (1 line)`)
    expect(write.details).toMatchObject({ operation: 'update', change: { oldText: 'mine\n' } })
    const edit = await d.run(d.agent('s2'), 'edit', {
      file_path: file,
      old_string: 'theirs',
      new_string: 'ours',
    })
    expect(edit.isError).toBe(false)
    expect(await readFile(file, 'utf8')).toBe('ours\n')
  })
})

describe('calls to the filesystem', () => {
  it('stats once per read and never for a write or an edit', async () => {
    d = await deploy()
    const stat = vi.spyOn(LocalFileSystem.prototype, 'stat')
    const agent = d.agent('s1')
    await writeFile(join(d.dir, 'c.txt'), 'a\n')
    await d.run(agent, 'read', { file_path: 'c.txt' })
    expect(stat).toHaveBeenCalledTimes(1)
    await d.run(agent, 'write', { file_path: 'c.txt', content: 'b\n' })
    expect(stat).toHaveBeenCalledTimes(1)
    await d.run(agent, 'edit', { file_path: 'c.txt', old_string: 'b', new_string: 'c' })
    expect(stat).toHaveBeenCalledTimes(1)
    expect(await readFile(join(d.dir, 'c.txt'), 'utf8')).toBe('c\n')
  })

  it('rejects an empty old_string and an unchanged edit before any I/O', async () => {
    d = await deploy()
    const resolve = vi.spyOn(LocalFileSystem.prototype, 'resolve')
    const agent = d.agent('s1')
    const empty = await d.run(agent, 'edit', { file_path: 'x', old_string: '', new_string: 'y' })
    expect(empty.error).toEqual({ name: 'FsError', code: 'FS_INVALID_EDIT' })
    expect(textOf(empty)).toBe(
      'Error: old_string is empty. Give the exact text to replace; to write a whole file, use write.',
    )
    const same = await d.run(agent, 'edit', { file_path: 'x', old_string: 'y', new_string: 'y' })
    expect(same.error).toEqual({ name: 'FsError', code: 'FS_INVALID_EDIT' })
    expect(textOf(same)).toBe(
      'Error: old_string and new_string are the same, so the edit would change nothing. Put the changed text in new_string.',
    )
    expect(resolve).not.toHaveBeenCalled()
    await d.run(agent, 'write', { file_path: 'x', content: 'y' })
    expect(resolve).toHaveBeenCalledTimes(1)
  })
})
