import { Context } from 'cordis'
import { FileSystem } from '@deepseek-ai/dsh-fs'
import { describe, expect, it } from 'vitest'
import AcpFileSystem from '../src/index'
import { MemoryEditor } from './helpers/editor'

describe('service', () => {
  it('serves ctx.fs as the disk at the process cwd when loaded without config', async () => {
    const ctx = new Context()
    await ctx.plugin(AcpFileSystem)
    expect(ctx.fs).toBeInstanceOf(FileSystem)
    expect((ctx.fs as AcpFileSystem).disk.cwd).toBe(process.cwd())
    expect((await ctx.fs.resolve('a.txt')).displayPath).toBe(`${process.cwd()}/a.txt`)
  })

  it('loads with an editor and stops serving ctx.fs once disposed', async () => {
    const ctx = new Context()
    const editor = new MemoryEditor()
    const fiber = await ctx.plugin(AcpFileSystem, { clientOf: () => editor, timeoutMs: 1000 })
    expect(ctx.fs).toBeInstanceOf(AcpFileSystem)
    await fiber.dispose()
    expect(ctx.get('fs')).toBeUndefined()
  })

  it('refuses a config whose clientOf is not a function or whose timeout is not positive', async () => {
    const ctx = new Context()
    await expect(ctx.plugin(AcpFileSystem, { clientOf: 'editor' as never })).rejects.toThrow()
    await expect(ctx.plugin(AcpFileSystem, { timeoutMs: 0 })).rejects.toThrow()
    expect(ctx.get('fs')).toBeUndefined()
  })
})
