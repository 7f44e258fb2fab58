import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { bundleDriver } from './helpers/child/bundle'
import { runChildOp } from './helpers/child/run'
import { setupLocal, type LocalSetup } from './helpers/local'

// Permission bits are checked in a child process: as root the tests could not be denied
// anything, so the child drops to `nobody` (see child/run.ts).
describe('permissions', () => {
  let driver: { script: string; directory: string }
  let local: LocalSetup

  beforeAll(async () => {
    driver = await bundleDriver()
  }, 60_000)
  afterAll(() => rm(driver.directory, { recursive: true, force: true }))
  beforeEach(async () => {
    local = await setupLocal()
    await chmod(local.root, 0o755)
  })
  afterEach(() => local.cleanup())

  it('refuses to read an unreadable file with FS_PERMISSION_DENIED', async () => {
    const file = join(local.root, 'secret.txt')
    await writeFile(file, 'secret')
    await chmod(file, 0o000)
    const outcome = runChildOp(driver.script, {
      cwd: local.root,
      action: 'readText',
      path: 'secret.txt',
    })
    expect(outcome).toMatchObject({ ok: false, name: 'FsError', code: 'FS_PERMISSION_DENIED' })
    expect(outcome.ok ? '' : outcome.message).toContain(file)
  })

  it('still stats an unreadable file', async () => {
    await writeFile(join(local.root, 'secret.txt'), 'secret')
    await chmod(join(local.root, 'secret.txt'), 0o000)
    const outcome = runChildOp(driver.script, {
      cwd: local.root,
      action: 'stat',
      path: 'secret.txt',
    })
    expect(outcome).toMatchObject({ ok: true, result: { info: { type: 'file', size: 6 } } })
  })

  it('refuses to edit an unreadable file and leaves it as it was', async () => {
    const file = join(local.root, 'secret.txt')
    await writeFile(file, 'secret')
    await chmod(file, 0o000)
    const outcome = runChildOp(driver.script, {
      cwd: local.root,
      action: 'editText',
      path: 'secret.txt',
      oldString: 'secret',
      newString: 'public',
    })
    expect(outcome).toMatchObject({ ok: false, code: 'FS_PERMISSION_DENIED' })
    expect(await readFile(file, 'utf8')).toBe('secret')
  })

  it('refuses to replace a file in an unwritable directory and leaves no temporary file', async () => {
    const directory = join(local.root, 'locked')
    await mkdir(directory)
    await writeFile(join(directory, 'a.txt'), 'before')
    await chmod(join(directory, 'a.txt'), 0o666)
    await chmod(directory, 0o555)
    const outcome = runChildOp(driver.script, {
      cwd: local.root,
      action: 'writeText',
      path: 'locked/a.txt',
      content: 'after',
    })
    expect(outcome).toMatchObject({ ok: false, code: 'FS_PERMISSION_DENIED' })
    expect(await readFile(join(directory, 'a.txt'), 'utf8')).toBe('before')
    expect(await readdir(directory)).toEqual(['a.txt'])
  })

  it('refuses to create a file in an unwritable directory', async () => {
    const directory = join(local.root, 'locked')
    await mkdir(directory)
    await chmod(directory, 0o555)
    const outcome = runChildOp(driver.script, {
      cwd: local.root,
      action: 'writeText',
      path: 'locked/new.txt',
      content: 'x',
    })
    expect(outcome).toMatchObject({ ok: false, code: 'FS_PERMISSION_DENIED' })
    expect(await readdir(directory)).toEqual([])
  })

  it('refuses to overwrite or edit a read-only file in a writable directory', async () => {
    const file = join(local.root, 'frozen.txt')
    await writeFile(file, 'before')
    await chmod(file, 0o444)
    await chmod(local.root, 0o777)
    const write = runChildOp(driver.script, {
      cwd: local.root,
      action: 'writeText',
      path: 'frozen.txt',
      content: 'after',
    })
    expect(write).toMatchObject({ ok: false, code: 'FS_PERMISSION_DENIED' })
    expect(write.ok ? '' : write.message).toContain('read-only')
    const edit = runChildOp(driver.script, {
      cwd: local.root,
      action: 'editText',
      path: 'frozen.txt',
      oldString: 'before',
      newString: 'after',
    })
    expect(edit).toMatchObject({ ok: false, code: 'FS_PERMISSION_DENIED' })
    expect(await readFile(file, 'utf8')).toBe('before')
    expect(await readdir(local.root)).toEqual(['frozen.txt'])
  })

  it('writes a writable file for the unprivileged child', async () => {
    await writeFile(join(local.root, 'open.txt'), 'before')
    await chmod(join(local.root, 'open.txt'), 0o666)
    await chmod(local.root, 0o777)
    const outcome = runChildOp(driver.script, {
      cwd: local.root,
      action: 'writeText',
      path: 'open.txt',
      content: 'after',
    })
    expect(outcome).toMatchObject({
      ok: true,
      result: { operation: 'update', previousText: 'before' },
    })
    expect(await readFile(join(local.root, 'open.txt'), 'utf8')).toBe('after')
  })
})
