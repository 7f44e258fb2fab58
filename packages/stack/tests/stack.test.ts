// The stack as one plugin: its file keys bring ctx.fs, ctx.tools and ctx.systemPrompt with the
// file and search tools, an absent key leaves its plugin out, and disposing it leaves nothing behind.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as Stack from '../src/index'
import { fileTools } from './helpers/deployment'
import { testExecution, testSession } from '@deepseek-ai/dsh-tools/testing'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsh-stack-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const SERVICES = ['fs', 'tools', 'systemPrompt'] as const

describe('the stack plugin', () => {
  it('loads the provider, the registry, the prompt and the tools; disposing removes them all', async () => {
    const ctx = new Context()
    const stack = await ctx.plugin(Stack, fileTools(dir))
    for (const key of SERVICES) expect(ctx.get(key), key).not.toBeUndefined()
    expect(ctx.tools.names()).toEqual(['read', 'write', 'edit', 'glob', 'grep'])
    await stack.dispose()
    for (const key of SERVICES) expect(ctx.get(key), key).toBeUndefined()
  })

  it('leaves the search tools out without the toolSearch key', async () => {
    const ctx = new Context()
    const stack = await ctx.plugin(Stack, { ...fileTools(dir), toolSearch: undefined })
    expect(ctx.tools.names()).toEqual(['read', 'write', 'edit'])
    await stack.dispose()
  })

  it('guards overwrites with the fsPolicy key, and not without it', async () => {
    const attempt = async (policy: boolean) => {
      const ctx = new Context()
      const { fsPolicy, ...rest } = fileTools(dir)
      const stack = await ctx.plugin(Stack, policy ? { fsPolicy, ...rest } : rest)
      await writeFile(join(dir, 'a.txt'), 'mine\n')
      const session = testSession({ id: 's1', cwd: dir })
      const args = { file_path: 'a.txt', content: 'theirs\n' }
      const result = await ctx.tools.execute(testExecution('write', args, { session }))
      await stack.dispose()
      return result.error?.code ?? 'ok'
    }
    expect(await attempt(true)).toBe('FS_NOT_OBSERVED')
    expect(await attempt(false)).toBe('ok')
  })

  it('resolves relative paths outside a session against fsLocal.cwd', async () => {
    const ctx = new Context()
    await ctx.plugin(Stack, fileTools(dir))
    expect((await ctx.fs.resolve('x/y.txt')).displayPath).toBe(join(dir, 'x/y.txt'))
  })

  it('names the plugin that did not start', async () => {
    const ctx = new Context()
    const waiting = { name: 'waiting', inject: ['missing'], apply() {} }
    await expect(Stack.loadInOrder([['needs-missing', () => ctx.plugin(waiting)]])).rejects.toThrow(
      'the needs-missing plugin did not start (state 0)',
    )
  })
})
