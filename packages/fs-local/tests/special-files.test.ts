import { execFileSync } from 'node:child_process'
import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { failureOf, setupLocal, type LocalSetup } from './helpers/local'

let local: LocalSetup
beforeEach(async () => {
  local = await setupLocal()
})
afterEach(() => local.cleanup())

const at = (relative: string) => join(local.root, relative)

describe('directories', () => {
  it('refuses every text operation on a directory with FS_NOT_REGULAR_FILE', async () => {
    await mkdir(at('dir'))
    const target = await local.fs.resolve('dir')
    expect((await failureOf(local.fs.readText(target))).code).toBe('FS_NOT_REGULAR_FILE')
    expect((await failureOf(local.fs.writeText(target, 'x'))).code).toBe('FS_NOT_REGULAR_FILE')
    const edit = await failureOf(local.fs.editText(target, { oldString: 'a', newString: 'b' }))
    expect(edit).toMatchObject({ code: 'FS_NOT_REGULAR_FILE' })
    expect(edit.message).toBe(
      `${at('dir')} is a directory, not a regular file. Only regular files can be read, written or edited; give the path of a file.`,
    )
    expect((await lstat(at('dir'))).isDirectory()).toBe(true)
  })
})

describe('named pipes and sockets', () => {
  it('reports a FIFO as other and refuses to read it without hanging', async () => {
    execFileSync('mkfifo', [at('pipe')])
    const target = await local.fs.resolve('pipe')
    expect(await local.fs.stat(target)).toMatchObject({ type: 'other' })
    const read = await failureOf(local.fs.readText(target))
    expect(read.code).toBe('FS_NOT_REGULAR_FILE')
    expect(read.message).toContain('a named pipe (FIFO)')
    const stream = async () => {
      for await (const _chunk of local.fs.streamText(target)) break
    }
    expect((await failureOf(stream())).code).toBe('FS_NOT_REGULAR_FILE')
  })

  it('refuses to write or edit a FIFO and leaves it a FIFO', async () => {
    execFileSync('mkfifo', [at('pipe')])
    const target = await local.fs.resolve('pipe')
    expect((await failureOf(local.fs.writeText(target, 'x'))).code).toBe('FS_NOT_REGULAR_FILE')
    const edit = local.fs.editText(target, { oldString: 'a', newString: 'b' })
    expect((await failureOf(edit)).code).toBe('FS_NOT_REGULAR_FILE')
    expect((await lstat(at('pipe'))).isFIFO()).toBe(true)
    expect(await readdir(local.root)).toEqual(['pipe'])
  })

  it('refuses to read a socket with FS_NOT_REGULAR_FILE', async () => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(at('sock'), resolve))
    try {
      const read = await failureOf(local.fs.readText(await local.fs.resolve('sock')))
      expect(read.code).toBe('FS_NOT_REGULAR_FILE')
      expect(read.message).toContain('a socket')
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('symlinks', () => {
  it('gives a link and its target one target key', async () => {
    await writeFile(at('real.txt'), 'x')
    await symlink('real.txt', at('link.txt'))
    const link = await local.fs.resolve('link.txt')
    expect(link.displayPath).toBe(at('link.txt'))
    expect(link.targetKey).toBe((await local.fs.resolve('real.txt')).targetKey)
  })

  it('writes through a link into its target and keeps the link', async () => {
    await writeFile(at('real.txt'), 'before')
    await symlink('real.txt', at('link.txt'))
    const outcome = await local.fs.writeText(await local.fs.resolve('link.txt'), 'after')
    expect(outcome.operation).toBe('update')
    expect(await readFile(at('real.txt'), 'utf8')).toBe('after')
    expect((await lstat(at('link.txt'))).isSymbolicLink()).toBe(true)
    expect(await readlink(at('link.txt'))).toBe('real.txt')
  })

  it('edits through a link and keeps the link', async () => {
    await writeFile(at('real.txt'), 'one two')
    await symlink('real.txt', at('link.txt'))
    await local.fs.editText(await local.fs.resolve('link.txt'), {
      oldString: 'two',
      newString: '2',
    })
    expect(await readFile(at('real.txt'), 'utf8')).toBe('one 2')
    expect((await lstat(at('link.txt'))).isSymbolicLink()).toBe(true)
  })

  it('treats a dangling link as absent and creates its target on write', async () => {
    await symlink('ghost.txt', at('dangling.txt'))
    const target = await local.fs.resolve('dangling.txt')
    expect(target.targetKey).toBe(at('ghost.txt'))
    expect(await local.fs.stat(target)).toBeUndefined()
    expect((await failureOf(local.fs.readText(target))).code).toBe('FS_NOT_FOUND')
    const outcome = await local.fs.writeText(target, 'now real', { kind: 'createIfAbsent' })
    expect(outcome.operation).toBe('create')
    expect(await readFile(at('ghost.txt'), 'utf8')).toBe('now real')
    expect((await lstat(at('dangling.txt'))).isSymbolicLink()).toBe(true)
    expect((await local.fs.resolve('dangling.txt')).targetKey).toBe(target.targetKey)
  })

  it('keeps the lexical path as the key of a symlink loop and reports FS_IO on read', async () => {
    await symlink('loop-b', at('loop-a'))
    await symlink('loop-a', at('loop-b'))
    const target = await local.fs.resolve('loop-a')
    expect(target.targetKey).toBe(at('loop-a'))
    const read = await failureOf(local.fs.readText(target))
    expect(read.code).toBe('FS_IO')
    expect(read.message).toContain('ELOOP')
  })
})

describe('a parent that is a file', () => {
  it('refuses a write below a file with FS_NOT_FOUND and leaves no temporary file', async () => {
    await writeFile(at('file.txt'), 'keep')
    const target = await local.fs.resolve('file.txt/child.txt')
    const write = await failureOf(local.fs.writeText(target, 'x'))
    expect(write.code).toBe('FS_NOT_FOUND')
    expect(write.message).toContain('a parent component of the path is a file')
    expect(await readdir(local.root)).toEqual(['file.txt'])
    expect(await readFile(at('file.txt'), 'utf8')).toBe('keep')
  })

  it('refuses a write two levels below a file with FS_NOT_FOUND', async () => {
    await writeFile(at('file.txt'), 'keep')
    const write = local.fs.writeText(await local.fs.resolve('file.txt/a/b.txt'), 'x')
    expect((await failureOf(write)).code).toBe('FS_NOT_FOUND')
  })

  it('reports a path below a file as absent to stat and FS_NOT_FOUND to an edit', async () => {
    await writeFile(at('file.txt'), 'keep')
    const target = await local.fs.resolve('file.txt/child.txt')
    expect(await local.fs.stat(target)).toBeUndefined()
    const edit = local.fs.editText(target, { oldString: 'a', newString: 'b' })
    expect((await failureOf(edit)).code).toBe('FS_NOT_FOUND')
  })
})

describe('paths', () => {
  it('refuses a path with a NUL character with FS_NOT_FOUND', async () => {
    expect((await failureOf(local.fs.resolve('a\0b'))).code).toBe('FS_NOT_FOUND')
  })

  it('resolves a relative cwd option against the provider base', async () => {
    expect((await local.fs.resolve('a.txt', { cwd: 'sub' })).displayPath).toBe(at('sub/a.txt'))
  })
})
