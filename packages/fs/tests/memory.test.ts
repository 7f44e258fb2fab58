import { posix } from 'node:path'
import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { MemoryFileSystem, runFileSystemContract } from '../src/testing'

async function makeMemoryFs(config?: { cwd?: string }): Promise<MemoryFileSystem> {
  const ctx = new Context()
  await ctx.plugin(MemoryFileSystem, config ?? {})
  return ctx.fs as MemoryFileSystem
}

runFileSystemContract('MemoryFileSystem', async () => {
  const fs = await makeMemoryFs({ cwd: '/home/user/project' })
  return {
    fs,
    root: fs.cwd,
    path: (relative) => posix.join(fs.cwd, relative),
    writeBytes: async (relative, bytes) => fs.putBytes(relative, bytes),
    readBytes: async (relative) => fs.getBytes(relative),
    makeDirectory: async (relative) => fs.makeDirectory(relative),
    cleanup: async () => {},
  }
})

describe('memory provider', () => {
  it('defaults its base to /workspace', async () => {
    const fs = await makeMemoryFs()
    expect((await fs.resolve('a.txt')).displayPath).toBe('/workspace/a.txt')
  })

  it('is the ctx.fs service once loaded', async () => {
    const ctx = new Context()
    await ctx.plugin(MemoryFileSystem, { cwd: '/w' })
    expect(ctx.fs).toBeInstanceOf(MemoryFileSystem)
    expect((ctx.fs as MemoryFileSystem).cwd).toBe('/w')
  })

  it('reports a special entry as other and refuses to read it', async () => {
    const fs = await makeMemoryFs()
    fs.putOther('fifo')
    const target = await fs.resolve('fifo')
    expect((await fs.stat(target))?.type).toBe('other')
    await expect(fs.readText(target)).rejects.toMatchObject({ code: 'FS_NOT_REGULAR_FILE' })
  })

  it('forgets a removed file and everything under a removed directory', async () => {
    const fs = await makeMemoryFs()
    fs.putText('dir/a.txt', 'a')
    fs.putText('b.txt', 'b')
    fs.remove('dir')
    expect(fs.getBytes('dir/a.txt')).toBeUndefined()
    expect(await fs.stat(await fs.resolve('dir'))).toBeUndefined()
    expect(fs.getBytes('b.txt')).toEqual(new TextEncoder().encode('b'))
  })

  it('reports a replaced file as stale to a write guarded by the old version', async () => {
    const fs = await makeMemoryFs()
    fs.putText('a.txt', 'one')
    const target = await fs.resolve('a.txt')
    const version = (await fs.stat(target))!.version
    fs.remove('a.txt')
    await expect(
      fs.writeText(target, 'x', { kind: 'replaceIfVersion', version }),
    ).rejects.toMatchObject({ code: 'FS_STALE_VERSION' })
    expect(fs.getBytes('a.txt')).toBeUndefined()
  })
})
