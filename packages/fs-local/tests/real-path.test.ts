// realPath on the disk: symlinks are followed wherever they sit, so a path that is spelled
// inside a directory but leads out of it is seen for what it is.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { failureOf, setupLocal, type LocalSetup } from './helpers/local'

let local: LocalSetup
let outside = ''
beforeEach(async () => {
  local = await setupLocal()
  outside = await realpath(await mkdtemp(join(tmpdir(), 'dsh-outside-')))
})
afterEach(async () => {
  await local.cleanup()
  await rm(outside, { recursive: true, force: true })
})

describe('realPath through symlinks', () => {
  it('follows a symlinked file to its target', async () => {
    await writeFile(join(outside, 'secret.txt'), 'x')
    await symlink(join(outside, 'secret.txt'), join(local.root, 'link.txt'))
    expect(await local.fs.realPath('link.txt')).toBe(join(outside, 'secret.txt'))
  })

  it('follows a symlinked directory, for files that exist and files that do not yet', async () => {
    await symlink(outside, join(local.root, 'out'))
    await writeFile(join(outside, 'a.txt'), 'a')
    expect(await local.fs.realPath('out/a.txt')).toBe(join(outside, 'a.txt'))
    expect(await local.fs.realPath('out/new/b.txt')).toBe(join(outside, 'new/b.txt'))
  })

  it('follows a dangling symlink to where a write would create the file', async () => {
    await symlink(join(outside, 'later.txt'), join(local.root, 'dangling.txt'))
    expect(await local.fs.realPath('dangling.txt')).toBe(join(outside, 'later.txt'))
  })

  it('gives the real path of a base that is itself a symlink', async () => {
    const alias = join(outside, 'alias')
    await symlink(local.root, alias)
    await mkdir(join(local.root, 'src'))
    expect(await local.fs.realPath('src/a.ts', { cwd: alias })).toBe(join(local.root, 'src/a.ts'))
    expect(await local.fs.realPath(alias)).toBe(local.root)
  })

  it('refuses a loop of links with an FsError instead of guessing', async () => {
    await symlink(join(local.root, 'b'), join(local.root, 'a'))
    await symlink(join(local.root, 'a'), join(local.root, 'b'))
    const failure = await failureOf(local.fs.realPath('a/file.txt'))
    expect(failure.code).toBe('FS_IO')
    expect(failure.message).toContain('ELOOP')
  })
})

describe('one answer per call', () => {
  it('gives the realPath of a call back as the target key of the same call', async () => {
    await writeFile(join(outside, 'first.txt'), '1')
    await writeFile(join(outside, 'second.txt'), '2')
    await symlink(join(outside, 'first.txt'), join(local.root, 'moving.txt'))
    const call = {}
    expect(await local.fs.realPath('moving.txt', { call })).toBe(join(outside, 'first.txt'))
    // The link is pointed elsewhere between the permission check and the tool.
    await rm(join(local.root, 'moving.txt'))
    await symlink(join(outside, 'second.txt'), join(local.root, 'moving.txt'))
    const target = await local.fs.resolve('moving.txt', { call })
    expect(target.targetKey).toBe(join(outside, 'first.txt'))
    // Another call (or none) sees the link as it is now.
    expect((await local.fs.resolve('moving.txt', { call: {} })).targetKey).toBe(
      join(outside, 'second.txt'),
    )
    expect((await local.fs.resolve('moving.txt')).targetKey).toBe(join(outside, 'second.txt'))
  })

  it('keeps a refusal for the call, and the target key falls back as without a call', async () => {
    await symlink(join(local.root, 'b'), join(local.root, 'a'))
    await symlink(join(local.root, 'a'), join(local.root, 'b'))
    const call = {}
    expect((await failureOf(local.fs.realPath('a/file.txt', { call }))).code).toBe('FS_IO')
    expect((await failureOf(local.fs.realPath('a/file.txt', { call }))).code).toBe('FS_IO')
    const target = await local.fs.resolve('a/file.txt', { call })
    expect(target.targetKey).toBe((await local.fs.resolve('a/file.txt')).targetKey)
  })
})
