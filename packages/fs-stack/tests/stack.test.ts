// The stack as one plugin: it brings ctx.fs, ctx.tools and ctx.systemPrompt with the file and
// search tools, honours `policy: false` and `search: false`, and disposing it leaves nothing behind.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as FsStack from '../src/index'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsh-fs-stack-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const SERVICES = ['fs', 'tools', 'systemPrompt'] as const

describe('the stack plugin', () => {
  it('loads the provider, the registry, the prompt and the tools; disposing removes them all', async () => {
    const ctx = new Context()
    const stack = await ctx.plugin(FsStack, { local: { cwd: dir } })
    for (const key of SERVICES) expect(ctx.get(key), key).not.toBeUndefined()
    expect(ctx.tools.names()).toEqual(['read', 'write', 'edit', 'glob', 'grep'])
    await stack.dispose()
    for (const key of SERVICES) expect(ctx.get(key), key).toBeUndefined()
  })

  it('leaves the search tools out with search: false', async () => {
    const ctx = new Context()
    const stack = await ctx.plugin(FsStack, { local: { cwd: dir }, search: false })
    expect(ctx.tools.names()).toEqual(['read', 'write', 'edit'])
    await stack.dispose()
  })

  it('guards overwrites with the policy by default, and not with policy: false', async () => {
    const attempt = async (policy: boolean) => {
      const ctx = new Context()
      const stack = await ctx.plugin(FsStack, { local: { cwd: dir }, policy })
      await writeFile(join(dir, 'a.txt'), 'mine\n')
      const agent = { session: { header: { id: 's1', cwd: dir } } }
      const args = { file_path: 'a.txt', content: 'theirs\n' }
      const result = await ctx.tools.execute({
        callId: 'c1',
        name: 'write',
        arguments: args,
        agent,
      })
      await stack.dispose()
      return result.error?.code ?? 'ok'
    }
    expect(await attempt(true)).toBe('FS_NOT_OBSERVED')
    expect(await attempt(false)).toBe('ok')
  })

  it('resolves relative paths outside a session against local.cwd', async () => {
    const ctx = new Context()
    await ctx.plugin(FsStack, { local: { cwd: dir } })
    expect((await ctx.fs.resolve('x/y.txt')).displayPath).toBe(join(dir, 'x/y.txt'))
  })

  it('names the plugin that did not start', async () => {
    const ctx = new Context()
    const waiting = { name: 'waiting', inject: ['missing'], apply() {} }
    await expect(
      FsStack.loadInOrder([['needs-missing', () => ctx.plugin(waiting)]]),
    ).rejects.toThrow('the needs-missing plugin did not start (state 0)')
  })
})
