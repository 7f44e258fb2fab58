import { chmod, chown, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeFileAtomic } from '../src/atomic-write'
import { OpenDirectory } from '../src/directory'
import { failureOf, setupLocal, type LocalSetup } from './helpers/local'

let local: LocalSetup
beforeEach(async () => {
  local = await setupLocal()
})
afterEach(() => local.cleanup())

const at = (relative: string) => join(local.root, relative)
const modeOf = async (relative: string) => (await stat(at(relative))).mode & 0o7777

describe('permissions of written files', () => {
  it('keeps the executable mode of a replaced file', async () => {
    await writeFile(at('run.sh'), '#!/bin/sh\n')
    await chmod(at('run.sh'), 0o755)
    await local.fs.writeText(await local.fs.resolve('run.sh'), '#!/bin/sh\necho hi\n')
    expect(await modeOf('run.sh')).toBe(0o755)
  })

  it('keeps a private mode through an edit', async () => {
    await writeFile(at('secret.txt'), 'a')
    await chmod(at('secret.txt'), 0o600)
    await local.fs.editText(await local.fs.resolve('secret.txt'), {
      oldString: 'a',
      newString: 'b',
    })
    expect(await modeOf('secret.txt')).toBe(0o600)
  })

  it('creates a new file with 0o666 under the process umask', async () => {
    const previous = process.umask(0o027)
    try {
      await local.fs.writeText(await local.fs.resolve('new.txt'), 'x')
    } finally {
      process.umask(previous)
    }
    expect(await modeOf('new.txt')).toBe(0o640)
    await local.fs.writeText(await local.fs.resolve('other.txt'), 'x')
    expect(await modeOf('other.txt')).toBe(0o666 & ~previous)
  })

  it('keeps the owner of a replaced file when the process may', async (context) => {
    if (process.getuid?.() !== 0) context.skip()
    await writeFile(at('theirs.txt'), 'a')
    await chown(at('theirs.txt'), 65534, 65534)
    await local.fs.writeText(await local.fs.resolve('theirs.txt'), 'b')
    const stats = await stat(at('theirs.txt'))
    expect([stats.uid, stats.gid]).toEqual([65534, 65534])
  })

  it('keeps the set-user-ID bit of a replaced file owned by another user', async (context) => {
    if (process.getuid?.() !== 0) context.skip()
    await writeFile(at('tool'), '#!/bin/sh\n')
    await chown(at('tool'), 65534, 65534)
    await chmod(at('tool'), 0o4755)
    await local.fs.writeText(await local.fs.resolve('tool'), '#!/bin/sh\necho hi\n')
    expect(await modeOf('tool')).toBe(0o4755)
    expect((await stat(at('tool'))).uid).toBe(65534)
  })
})

describe('atomic replacement', () => {
  it('creates missing parent directories', async () => {
    const outcome = await local.fs.writeText(await local.fs.resolve('a/b/c/d.txt'), 'deep')
    expect(outcome.operation).toBe('create')
    expect(await readFile(at('a/b/c/d.txt'), 'utf8')).toBe('deep')
  })

  it('replaces the inode, so a same-size rewrite in one millisecond has a new version', async () => {
    const target = await local.fs.resolve('a.txt')
    const versions = new Set<string>()
    for (let round = 0; round < 20; round++) {
      versions.add((await local.fs.writeText(target, round % 2 ? 'aaaa' : 'bbbb')).version)
    }
    expect(versions.size).toBe(20)
  })

  it('leaves only the target in its directory after writes and edits', async () => {
    const target = await local.fs.resolve('a.txt')
    await local.fs.writeText(target, 'one')
    await local.fs.editText(target, { oldString: 'one', newString: 'two' })
    await local.fs.writeText(target, 'three')
    expect(await readdir(local.root)).toEqual(['a.txt'])
  })

  it('removes its temporary file when the rename fails', async () => {
    await mkdir(at('occupied'))
    await writeFile(at('occupied/inner.txt'), 'x')
    const directory = await OpenDirectory.open(local.root, at('occupied'))
    const failure = await failureOf(
      writeFileAtomic(directory, 'occupied', new TextEncoder().encode('x'), {
        display: at('occupied'),
      }),
    ).finally(() => directory.close())
    expect(failure.code).toBe('FS_NOT_REGULAR_FILE')
    expect((await readdir(local.root)).sort()).toEqual(['occupied'])
    expect(await readdir(at('occupied'))).toEqual(['inner.txt'])
  })

  it('removes temporary files of dead writers and keeps those of live ones', async () => {
    const dead = at('.a.txt.999999999.0123456789ab.dsh-tmp')
    const live = at(`.a.txt.${process.pid}.0123456789ab.dsh-tmp`)
    const unrelated = at('.b.txt.999999999.0123456789ab.dsh-tmp')
    await Promise.all([dead, live, unrelated].map((path) => writeFile(path, 'partial')))
    await local.fs.writeText(await local.fs.resolve('a.txt'), 'whole')
    expect((await readdir(local.root)).sort()).toEqual(
      [
        '.a.txt.' + process.pid + '.0123456789ab.dsh-tmp',
        '.b.txt.999999999.0123456789ab.dsh-tmp',
        'a.txt',
      ].sort(),
    )
  })
})
