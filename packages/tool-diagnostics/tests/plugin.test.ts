// The plugin's life and the tool's answers, over a provider of the seam that answers from a
// table (the real one runs language servers: diagnostics-lsp's tests drive this tool over it).
import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { Diagnostics } from '@deepseek-ai/dsh-diagnostics'
import type { DiagnosticsReport, DiagnosticsSnapshot } from '@deepseek-ai/dsh-diagnostics'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import * as ToolDiagnostics from '../src/index'
import { testExecution, testSession } from '@deepseek-ai/dsh-tools/testing'

const ERROR = {
  path: '/w/src/a.ts',
  line: 2,
  column: 10,
  severity: 'error' as const,
  code: 'TS2322',
  message: "Type 'string' is not assignable to type 'number'.",
}

class TableDiagnostics extends Diagnostics {
  readonly waitMs = 100
  async afterChange(): Promise<DiagnosticsReport> {
    return { status: 'none', introduced: [] }
  }
  async current(path: string | undefined): Promise<DiagnosticsSnapshot> {
    if (path === '/w/src/a.ts') return { status: 'ready', diagnostics: [ERROR] }
    if (path === '/w/slow.ts') return { status: 'not-ready', diagnostics: [] }
    if (path === '/w/asked.ts')
      return { status: 'not-ready', diagnostics: [], waitingFor: 'answer' }
    return { status: path === undefined ? 'ready' : 'none', diagnostics: [] }
  }
}

async function mount() {
  const ctx = new Context()
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(SystemPrompt)
  await ctx.plugin(TableDiagnostics)
  const fiber = await ctx.plugin(ToolDiagnostics)
  const session = testSession({ id: 's', cwd: '/w' })
  const run = (args: Record<string, unknown>) =>
    ctx.tools.execute(testExecution('diagnostics', args, { session }))
  return { ctx, fiber, run }
}

describe('the diagnostics tool', () => {
  it("lists a file's errors with paths relative to the workspace", async () => {
    const { run } = await mount()
    const result = await run({ file_path: 'src/a.ts' })
    expect(result.content[0]?.text).toBe(
      "src/a.ts:2:10 error TS2322: Type 'string' is not assignable to type 'number'.",
    )
  })

  it('says when a file has none, when no server checks it, when it was not ready, and when the person was asked', async () => {
    const { run } = await mount()
    expect((await run({})).content[0]?.text).toBe('No errors in the files checked so far.')
    expect((await run({ file_path: 'a.md' })).content[0]?.text).toBe(
      'No language server checks /w/a.md.',
    )
    expect((await run({ file_path: 'slow.ts' })).content[0]?.text).toContain(
      'did not answer in time',
    )
    expect((await run({ file_path: 'asked.ts' })).content[0]?.text).toMatch(
      /^Diagnostics wait for the person's answer/,
    )
  })

  it('shows a card with the count in its title and the places', async () => {
    const { ctx, run } = await mount()
    const result = await run({ file_path: 'src/a.ts' })
    const card = ctx.tools.presentResult('diagnostics', { file_path: 'src/a.ts' }, result)
    expect(card?.title).toBe('Diagnostics src/a.ts: 1 error')
    expect(card?.locations).toEqual([{ path: '/w/src/a.ts', line: 2 }])
  })

  it('is gone with its prompt section when disposed', async () => {
    const { ctx, fiber } = await mount()
    expect(ctx.tools.names()).toEqual(['diagnostics'])
    await fiber.dispose()
    expect(ctx.tools.names()).toEqual([])
    expect(ctx.systemPrompt.sections()).toEqual([])
  })
})
