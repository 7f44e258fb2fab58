import { Context } from 'cordis'
import { FileSystem } from '@deepseek-ai/dsh-fs'
import { describe, expect, it } from 'vitest'
import LocalFileSystem from '../src/index'

describe('service', () => {
  it('serves ctx.fs with the process cwd when loaded without config', async () => {
    const ctx = new Context()
    await ctx.plugin(LocalFileSystem)
    expect(ctx.fs).toBeInstanceOf(FileSystem)
    expect((await ctx.fs.resolve('a.txt')).displayPath).toBe(`${process.cwd()}/a.txt`)
  })

  it('makes a relative configured cwd absolute', async () => {
    const ctx = new Context()
    await ctx.plugin(LocalFileSystem, { cwd: 'some/dir' })
    expect((ctx.fs as LocalFileSystem).cwd).toBe(`${process.cwd()}/some/dir`)
  })

  it('refuses a config with a bad edit limit', async () => {
    const ctx = new Context()
    await expect(ctx.plugin(LocalFileSystem, { maxEditBytes: -1 })).rejects.toThrow()
    expect(ctx.get('fs')).toBeUndefined()
  })

  it('stops serving ctx.fs once disposed', async () => {
    const ctx = new Context()
    const fiber = await ctx.plugin(LocalFileSystem, {})
    await fiber.dispose()
    expect(ctx.get('fs')).toBeUndefined()
  })
})
