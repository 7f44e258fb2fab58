// The search cards: titles, kind, the files found as locations (absolute, at most 20, grep's
// with the line of their first match, never a directory), and the access a permission layer
// judges (a read of the search root).
import { stat } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { makeSearchTree } from './helpers/tree'
import type { SearchTree } from './helpers/tree'
import { mountSearch } from './helpers/tools'
import type { SearchTools } from './helpers/tools'
import { testSession } from '@deepseek-ai/dsh-tools/testing'

let tree: SearchTree
let tools: SearchTools

beforeAll(async () => {
  tree = await makeSearchTree()
  tools = await mountSearch(tree.root)
})
afterAll(() => tree.cleanup())

const view = () => ({ cwd: tree.root })

describe('titles and kind', () => {
  it('glob is Find <pattern>, grep is Search <pattern>, with in <path> and (<glob>)', () => {
    const present = (name: string, args: unknown) => tools.ctx.tools.presentCall(name, args, view())
    expect(present('glob', { pattern: '**/*.ts' })).toEqual({
      title: 'Find **/*.ts',
      kind: 'search',
    })
    expect(present('glob', { pattern: '*.ts', path: `${tree.root}/src` })?.title).toBe(
      'Find *.ts in src',
    )
    expect(present('grep', { pattern: 'needle', path: 'src', glob: '*.ts' })?.title).toBe(
      'Search needle in src (*.ts)',
    )
    expect(present('grep', { pattern: 'x', path: '/elsewhere' })?.title).toBe(
      'Search x in /elsewhere',
    )
    const long = 'a'.repeat(200)
    expect(present('grep', { pattern: long })?.title).toBe(`Search ${'a'.repeat(80)}…`)
    expect(present('grep', { pattern: 'x', output_mode: 'content', context: 2 })).toEqual({
      title: 'Search x',
      kind: 'search',
      rawInput: 'pattern: x, content, context 2',
    })
  })
})

describe('locations after the result', () => {
  async function locationsOf(name: 'glob' | 'grep', args: Record<string, unknown>) {
    const result = await tools.call(name, args)
    expect(result.isError).toBe(false)
    const view = { content: result.content, isError: false, details: result.details }
    return tools.ctx.tools.presentResult(name, args, view, { cwd: tree.root })?.locations ?? []
  }

  it('grep points at each file found with its first match, and at each matched line of content', async () => {
    const files = await locationsOf('grep', { pattern: 'needle', path: 'src' })
    expect(files).toEqual([
      { path: `${tree.root}/src/app.ts`, line: 1 },
      { path: `${tree.root}/src/deep/nested/util.ts`, line: 2 },
      { path: `${tree.root}/src/important.tmp`, line: 1 },
      { path: `${tree.root}/src/lib.ts`, line: 1 },
    ])
    const content = await locationsOf('grep', {
      pattern: 'const [bc]',
      path: 'src',
      output_mode: 'content',
      context: 1,
    })
    expect(content).toEqual([
      { path: `${tree.root}/src/deep/nested/util.ts`, line: 3 },
      { path: `${tree.root}/src/deep/nested/util.ts`, line: 4 },
    ])
  })

  it('grep content points at each matched line up to 50, then at further files once, up to 20', async () => {
    const located = await locationsOf('grep', {
      pattern: '^file [0-9]+$',
      path: 'flat',
      output_mode: 'content',
      head_limit: 0,
    })
    expect(located).toHaveLength(70)
    expect(located.every((location) => location.line === 1)).toBe(true)
    const paths = located.map((location) => location.path)
    expect(new Set(paths).size).toBe(70)
  })

  it('at most 20 files, in result order, and never a directory', async () => {
    const files = await locationsOf('glob', { pattern: 'flat/*' })
    expect(files).toHaveLength(20)
    expect(files[0]).toEqual({ path: `${tree.root}/flat/f001.txt` })
    const counted = await locationsOf('grep', { pattern: 'e', output_mode: 'count', head_limit: 0 })
    expect(counted).toHaveLength(20)
    for (const location of [...files, ...counted]) {
      expect((await stat(location.path)).isFile(), location.path).toBe(true)
    }
  })

  it('a failed or empty search keeps the call card', async () => {
    const failed = tools.ctx.tools.presentResult(
      'grep',
      { pattern: '(' },
      { content: [{ type: 'text', text: 'Error' }], isError: true },
    )
    expect(failed).toBeUndefined()
    expect(await locationsOf('grep', { pattern: 'nothing matches this' })).toEqual([])
  })
})

describe('access: a read of the search root', () => {
  const exec = (args: unknown): ToolExecution => ({
    callId: 'c',
    name: 'grep',
    arguments: args,
    session: testSession({ id: 's', cwd: tree.root }),
  })

  it('the root is the path made absolute, the workspace by default', async () => {
    const access = (args: unknown) => tools.ctx.tools.access({ ...exec(args), name: 'grep' })
    expect(await access({ pattern: 'x' })).toEqual({ effect: 'read', scope: [tree.root] })
    expect(await access({ pattern: 'x', path: 'src/../link-out' })).toEqual({
      effect: 'read',
      scope: [`${tree.root}/link-out`],
    })
    const glob = await tools.ctx.tools.access({
      ...exec({ pattern: '*', path: '/etc' }),
      name: 'glob',
    })
    expect(glob).toEqual({ effect: 'read', scope: ['/etc'] })
  })
})
