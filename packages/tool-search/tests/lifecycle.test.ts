// The ripgrep process's life: a timeout and a cancel end it at once (checked with the OS, by
// its pid in /proc), an invalid regex fails with ripgrep's explanation, a missing binary with
// what to install; the plugin registers its tools and prompt sections and takes them away.
import { access, chmod, mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findOnPath } from '../src/engine'
import { makeSearchTree, ripgrepsIn } from './helpers/tree'
import type { SearchTree } from './helpers/tree'
import { mountSearch } from './helpers/tools'

let tree: SearchTree

beforeAll(async () => {
  tree = await makeSearchTree()
})
afterAll(() => tree.cleanup())

async function isRunning(pid: number): Promise<boolean> {
  return access(`/proc/${pid}`).then(
    () => true,
    () => false,
  )
}

/** Polls /proc until a ripgrep runs in the tree: its pid. */
async function ripgrepStarted(): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const [pid] = await ripgrepsIn(tree.root, tree.rg)
    if (pid !== undefined) return pid
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error('no ripgrep started in the tree')
}

describe('ending ripgrep', () => {
  it('a timeout stops the search, says how to narrow it and leaves no rg', async () => {
    // The slow file takes ripgrep about 300 ms on a quiet machine: ten times the limit.
    const tools = await mountSearch(tree.root, { timeoutMs: 30 })
    const result = await tools.call('grep', { pattern: '.', path: 'slow', output_mode: 'count' })
    expect(result.error?.code).toBe('SEARCH_TIMEOUT')
    expect(tools.text(result)).toBe(
      'Error: The search took longer than 30 ms and was stopped. Narrow it: a path deeper in the tree, a glob such as "*.ts", or a more specific pattern.',
    )
    expect(await ripgrepsIn(tree.root, tree.rg)).toEqual([])
  })

  it('a cancel ends rg at once and leaves none', async () => {
    const tools = await mountSearch(tree.root)
    const controller = new AbortController()
    const running = tools.call(
      'grep',
      { pattern: '.', path: 'slow', output_mode: 'count' },
      { signal: controller.signal },
    )
    const pid = await ripgrepStarted()
    controller.abort()
    const result = await running
    expect(result.error?.code).toBe('TOOL_ABORTED')
    expect(await isRunning(pid)).toBe(false)
    expect(await ripgrepsIn(tree.root, tree.rg)).toEqual([])
  })

  it('a glob cancelled ends its rg too', async () => {
    const tools = await mountSearch(tree.root)
    const controller = new AbortController()
    controller.abort()
    const result = await tools.call('glob', { pattern: '**' }, { signal: controller.signal })
    expect(result.error?.code).toBe('TOOL_ABORTED')
    expect(await ripgrepsIn(tree.root, tree.rg)).toEqual([])
  })
})

describe('refusals', () => {
  it('an invalid regex fails with the engine’s explanation', async () => {
    const tools = await mountSearch(tree.root)
    const result = await tools.call('grep', { pattern: 'needle(', path: 'slow' })
    expect(result.error?.code).toBe('SEARCH_INVALID_PATTERN')
    expect(tools.text(result)).toContain('regex parse error')
    expect(tools.text(result)).toContain('unclosed group')
    expect(tools.text(result)).toContain('fixed_strings')
  })

  it('a ripgrep that cannot run names what to install', async () => {
    const tools = await mountSearch(tree.root, { rgPath: join(tree.root, 'no-rg-here') })
    const result = await tools.call('grep', { pattern: 'needle' })
    expect(result.error?.code).toBe('SEARCH_NO_RIPGREP')
    expect(tools.text(result)).toContain('Install ripgrep')
  })

  it('a workspace removed under the session is named, not taken for a missing ripgrep', async () => {
    const gone = await mkdtemp(join(tmpdir(), 'dsh-gone-'))
    await rm(gone, { recursive: true })
    const tools = await mountSearch(gone)
    const result = await tools.call('grep', { pattern: 'needle', path: tree.root })
    expect(result.error?.code).toBe('SEARCH_NOT_FOUND')
    expect(tools.text(result)).toContain(`The workspace ${gone} does not exist`)
  })

  it('rg is found on PATH when the package has none', async () => {
    const bin = await mkdtemp(join(tmpdir(), 'dsh-path-'))
    try {
      expect(findOnPath('rg', `/nonexistent:${bin}`)).toBeUndefined()
      await symlink(tree.rg, join(bin, 'rg'))
      await chmod(tree.rg, 0o755)
      expect(findOnPath('rg', `/nonexistent:${bin}`)).toBe(join(bin, 'rg'))
    } finally {
      await rm(bin, { recursive: true, force: true })
    }
  })
})

describe('the plugin', () => {
  it('registers glob, grep and their prompt sections and removes them on dispose', async () => {
    const tools = await mountSearch(tree.root)
    const { ctx, plugin } = tools
    expect(ctx.tools.names()).toEqual(['glob', 'grep'])
    const sections = ctx.systemPrompt.sections().map((section) => section.name)
    expect(sections).toEqual(['tool-search/glob', 'tool-search/grep'])
    expect(ctx.systemPrompt.assemble().system).toContain('Use grep to find where')
    await plugin.dispose()
    expect(ctx.tools.names()).toEqual([])
    expect(ctx.systemPrompt.sections()).toEqual([])
  })
})
