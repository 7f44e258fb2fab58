// A full disk: a 1 MiB tmpfs mounted on a mkdtemp directory (root only; CI runs as root).
// A write or edit that cannot fit must fail with a clear FsError (FS_IO, "The disk is full"),
// leave the old file byte for byte, leave no temporary file, and give the space back so the
// next write that fits succeeds. Where mounting is not permitted the cases are skipped and
// the reason is printed: LocalFileSystem has no injectable I/O boundary to fake ENOSPC at.
import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import LocalFileSystem from '../src/index'
import { failureOf } from './helpers/local'

const KB = 1024

interface SmallDisk {
  dir: string
  mounted: boolean
  reason?: string
}

async function mountSmallDisk(): Promise<SmallDisk> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-fs-local-full-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' })
    return { dir, mounted: true }
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim()
    return { dir, mounted: false, reason: stderr || String(error) }
  }
}

const disk = await mountSmallDisk()
if (!disk.mounted) {
  console.warn(`disk-full tests skipped: cannot mount a 1 MiB tmpfs (${disk.reason})`)
}

let fs: LocalFileSystem

beforeEach(async () => {
  if (!disk.mounted) return
  for (const entry of await readdir(disk.dir)) await rm(join(disk.dir, entry), { force: true })
  const ctx = new Context()
  await ctx.plugin(LocalFileSystem, { cwd: disk.dir })
  fs = ctx.fs as LocalFileSystem
})

afterAll(async () => {
  if (disk.mounted) execFileSync('umount', [disk.dir], { stdio: 'pipe' })
  await rm(disk.dir, { recursive: true, force: true })
})

const text = (size: number, unit = 'a line of the file\n') =>
  unit.repeat(Math.ceil(size / unit.length)).slice(0, size)

describe.skipIf(!disk.mounted)('writing to a full disk', () => {
  it('writes a file that fits', async () => {
    const content = text(300 * KB)
    const outcome = await fs.writeText(await fs.resolve('keep.txt'), content)
    expect(outcome.operation).toBe('create')
    expect(await readFile(join(disk.dir, 'keep.txt'), 'utf8')).toBe(content)
  })

  it('refuses a replacement that cannot fit with FS_IO saying the disk is full, and keeps the old file', async () => {
    const old = text(300 * KB, 'old content, kept byte for byte\n')
    await writeFile(join(disk.dir, 'keep.txt'), old)
    const before = await readFile(join(disk.dir, 'keep.txt'))
    const failure = await failureOf(fs.writeText(await fs.resolve('keep.txt'), text(2 * 1024 * KB)))
    expect(failure.code).toBe('FS_IO')
    expect(failure.message).toContain('The disk is full (ENOSPC)')
    expect(failure.message).toContain(join(disk.dir, 'keep.txt'))
    expect((await readFile(join(disk.dir, 'keep.txt'))).equals(before)).toBe(true)
    expect(await readdir(disk.dir)).toEqual(['keep.txt'])
  })

  it('does not create a new file that cannot fit and leaves no temporary file', async () => {
    const failure = await failureOf(fs.writeText(await fs.resolve('big.txt'), text(2 * 1024 * KB)))
    expect(failure.code).toBe('FS_IO')
    expect(failure.message).toContain('The disk is full')
    expect(await readdir(disk.dir)).toEqual([])
  })

  it('refuses an edit whose result cannot fit and keeps the old file', async () => {
    // The old file and its edited copy cannot both be on a 1 MiB disk during the swap.
    const old = `head\n${text(600 * KB)}`
    await writeFile(join(disk.dir, 'edit.txt'), old)
    const failure = await failureOf(
      fs.editText(await fs.resolve('edit.txt'), { oldString: 'head', newString: 'HEAD' }),
    )
    expect(failure.code).toBe('FS_IO')
    expect(failure.message).toContain('The disk is full')
    expect(await readFile(join(disk.dir, 'edit.txt'), 'utf8')).toBe(old)
    expect(await readdir(disk.dir)).toEqual(['edit.txt'])
  })

  it('gives the space back: after a failed write, a write that fits succeeds', async () => {
    await writeFile(join(disk.dir, 'keep.txt'), text(300 * KB))
    const target = await fs.resolve('keep.txt')
    const version = (await fs.stat(target))?.version ?? ''
    await failureOf(fs.writeText(target, text(2 * 1024 * KB)))
    expect((await fs.stat(target))?.version).toBe(version)
    const replacement = text(400 * KB, 'the replacement that fits\n')
    const outcome = await fs.writeText(target, replacement, { kind: 'replaceIfVersion', version })
    expect(outcome.operation).toBe('update')
    expect(await readFile(join(disk.dir, 'keep.txt'), 'utf8')).toBe(replacement)
    expect(await readdir(disk.dir)).toEqual(['keep.txt'])
  })
})
