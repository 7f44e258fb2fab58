// A change lands where its call judged it, or nowhere: between the judging (realPath with
// `change`, as the permission layer asks it) and the write, a directory on the path or the file
// itself is swapped for a link to a place outside, and the write or edit fails FS_PATH_CHANGED
// with no byte anywhere. Without a swap, links inside are followed as before.
import {
  link,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { failureOf, setupLocal, type LocalSetup } from './helpers/local'

let local: LocalSetup
let outside = ''
beforeEach(async () => {
  local = await setupLocal()
  outside = await realpath(await mkdtemp(join(tmpdir(), 'dsh-outside-')))
  await mkdir(join(local.root, 'sub'))
})
afterEach(async () => {
  await local.cleanup()
  await rm(outside, { recursive: true, force: true })
})

const at = (relative: string) => join(local.root, relative)

/** Judges `path` for a change as the permission layer does, then resolves it for the tool. */
async function judged(path: string) {
  const call = {}
  await local.fs.realPath(path, { call, change: true })
  return { call, judge: () => local.fs.resolve(path, { call, change: true }) }
}

/** `sub` moved to `sub.moved` and replaced by a link to the outside directory. */
async function swapSub(): Promise<void> {
  await rename(at('sub'), at('sub.moved'))
  await symlink(outside, at('sub'))
}

describe('a directory swapped for a link after the judging', () => {
  it('fails a write with FS_PATH_CHANGED and writes nothing anywhere', async () => {
    const { judge } = await judged('sub/new.txt')
    await swapSub()
    const failure = await failureOf(local.fs.writeText(await judge(), 'escaped'))
    expect(failure.code).toBe('FS_PATH_CHANGED')
    expect(await readdir(outside)).toEqual([])
    expect(await readdir(at('sub.moved'))).toEqual([])
  })

  it('fails a write resolved after the swap as well: the judged place is kept', async () => {
    const { judge } = await judged('sub/new.txt')
    await swapSub()
    const target = await judge()
    expect(target.targetKey).toBe(at('sub/new.txt'))
    expect((await failureOf(local.fs.writeText(target, 'x'))).code).toBe('FS_PATH_CHANGED')
  })

  it('fails an edit whose file is reached outside at the same version', async () => {
    await writeFile(at('sub/a.txt'), 'one\n')
    const { judge } = await judged('sub/a.txt')
    const { version } = (await local.fs.stat(await local.fs.resolve('sub/a.txt')))!
    await swapSub()
    // The same inode outside: its version is the one the caller holds.
    await link(at('sub.moved/a.txt'), join(outside, 'a.txt'))
    const edit = local.fs.editText(
      await judge(),
      { oldString: 'one', newString: 'two' },
      { version },
    )
    expect((await failureOf(edit)).code).toBe('FS_PATH_CHANGED')
    expect(await readFile(join(outside, 'a.txt'), 'utf8')).toBe('one\n')
    expect((await readdir(outside)).sort()).toEqual(['a.txt'])
    expect((await readdir(at('sub.moved'))).sort()).toEqual(['a.txt'])
  })

  it('fails a write whose directory was replaced by another real directory', async () => {
    const { judge } = await judged('sub/new.txt')
    await rename(at('sub'), at('sub.moved'))
    await mkdir(at('sub'))
    expect((await failureOf(local.fs.writeText(await judge(), 'x'))).code).toBe('FS_PATH_CHANGED')
    expect(await readdir(at('sub'))).toEqual([])
  })

  it('fails a write in missing directories when their existing parent was swapped', async () => {
    const { judge } = await judged('sub/deep/er/new.txt')
    await swapSub()
    expect((await failureOf(local.fs.writeText(await judge(), 'x'))).code).toBe('FS_PATH_CHANGED')
    expect(await readdir(outside)).toEqual([])
  })
})

describe('the file itself swapped for a link after the judging', () => {
  it('fails an edit and leaves the file the link reaches as it was', async () => {
    await writeFile(at('a.txt'), 'one\n')
    const { judge } = await judged('a.txt')
    const { version } = (await local.fs.stat(await local.fs.resolve('a.txt')))!
    await link(at('a.txt'), join(outside, 'a.txt'))
    await rm(at('a.txt'))
    await symlink(join(outside, 'a.txt'), at('a.txt'))
    const edit = local.fs.editText(
      await judge(),
      { oldString: 'one', newString: 'two' },
      { version },
    )
    expect((await failureOf(edit)).code).toBe('FS_PATH_CHANGED')
    expect(await readFile(join(outside, 'a.txt'), 'utf8')).toBe('one\n')
  })

  it('fails a write of a new file that became a dangling link to outside', async () => {
    const { judge } = await judged('new.txt')
    await symlink(join(outside, 'new.txt'), at('new.txt'))
    const write = local.fs.writeText(await judge(), 'escaped', { kind: 'createIfAbsent' })
    expect((await failureOf(write)).code).toBe('FS_PATH_CHANGED')
    expect(await readdir(outside)).toEqual([])
  })
})

describe('judged changes without a swap', () => {
  it('a write through a link inside reaches the file it points to, and the link stays a link', async () => {
    await writeFile(at('sub/real.txt'), 'old')
    await symlink(at('sub/real.txt'), at('alias.txt'))
    const { judge } = await judged('alias.txt')
    const outcome = await local.fs.writeText(await judge(), 'new')
    expect(outcome.operation).toBe('update')
    expect(await readFile(at('sub/real.txt'), 'utf8')).toBe('new')
    expect((await readdir(local.root)).sort()).toEqual(['alias.txt', 'sub'])
  })

  it('a write creates missing directories and leaves no lock or temporary file', async () => {
    const { judge } = await judged('sub/a/b/new.txt')
    await local.fs.writeText(await judge(), 'deep')
    expect(await readFile(at('sub/a/b/new.txt'), 'utf8')).toBe('deep')
    const edit = await local.fs.editText(await judge(), { oldString: 'deep', newString: 'deeper' })
    expect(edit.replacements).toBe(1)
    expect(await readdir(at('sub/a/b'))).toEqual(['new.txt'])
  })
})

describe('a guarded write whose directory is gone', () => {
  it('fails FS_STALE_VERSION and makes no directory', async () => {
    await writeFile(at('sub/a.txt'), 'one')
    const target = await local.fs.resolve('sub/a.txt')
    const { version } = (await local.fs.stat(target))!
    await rm(at('sub'), { recursive: true })
    const write = local.fs.writeText(target, 'two', { kind: 'replaceIfVersion', version })
    expect((await failureOf(write)).code).toBe('FS_STALE_VERSION')
    expect(await readdir(local.root)).toEqual([])
  })
})

describe('a judged path below a file', () => {
  it('fails a write with FS_NOT_FOUND: it could never exist, nothing changed', async () => {
    await writeFile(at('a.txt'), 'one')
    const { judge } = await judged('a.txt/b.txt')
    const failure = await failureOf(local.fs.writeText(await judge(), 'x'))
    expect(failure.code).toBe('FS_NOT_FOUND')
    expect(failure.message).toContain('a parent component of the path is a file')
    expect(await readFile(at('a.txt'), 'utf8')).toBe('one')
  })
})
