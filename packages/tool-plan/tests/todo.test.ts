// The todo tool through the real registry: what the model reads back, the details, the refusals,
// and the compact card with the plan a UI shows.
import { Context } from 'cordis'
import type { Fiber } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import * as ToolPlan from '../src/index'
import { testExecution } from '@deepseek-ai/dsh-tools/testing'

const mounted: Fiber[] = []
afterEach(async () => {
  for (const fiber of mounted.splice(0)) await fiber.dispose()
})

async function mount() {
  const ctx = new Context()
  const stack = await ctx.plugin({
    name: 'todo-test',
    apply: async (inner: Context) => {
      await inner.plugin(ToolRegistry)
      await inner.plugin(SystemPrompt)
    },
  })
  mounted.push(stack)
  const plan = await ctx.plugin(ToolPlan)
  return { ctx, plan }
}

const TODOS = [
  { content: 'Read the parser', status: 'completed' },
  { content: 'Fix the off-by-one', status: 'in_progress', priority: 'high' },
  { content: 'Run the tests', status: 'pending', priority: 'low' },
]

describe('the todo tool', () => {
  it('answers the model with the count and one marked line per item', async () => {
    const { ctx } = await mount()
    const result = await ctx.tools.execute(testExecution('todo', { todos: TODOS }))
    expect(result.isError).toBe(false)
    expect(result.content[0]?.text).toBe(
      [
        'Plan updated: 1 of 3 done ([x] completed, [>] in progress, [ ] pending).',
        '[x] Read the parser',
        '[>] Fix the off-by-one (high priority)',
        '[ ] Run the tests (low priority)',
      ].join('\n'),
    )
    expect(result.details).toEqual({
      todos: [
        { content: 'Read the parser', status: 'completed', priority: 'medium' },
        { content: 'Fix the off-by-one', status: 'in_progress', priority: 'high' },
        { content: 'Run the tests', status: 'pending', priority: 'low' },
      ],
    })
  })

  it('an empty list clears the plan', async () => {
    const { ctx } = await mount()
    const result = await ctx.tools.execute(testExecution('todo', { todos: [] }))
    expect(result.content[0]?.text).toBe('Plan cleared: no items.')
    expect(ctx.tools.presentCall('todo', { todos: [] })?.title).toBe('Clear plan')
  })

  it('two items in progress are refused with PLAN_SEVERAL_IN_PROGRESS naming them', async () => {
    const { ctx } = await mount()
    const todos = [
      { content: 'a', status: 'in_progress' },
      { content: 'b', status: 'in_progress' },
    ]
    const result = await ctx.tools.execute(testExecution('todo', { todos }))
    expect(result.isError).toBe(true)
    expect(result.error).toEqual({ name: 'PlanError', code: 'PLAN_SEVERAL_IN_PROGRESS' })
    expect(result.content[0]?.text).toContain('2 items are in_progress ("a", "b")')
  })

  it('a bad status or an empty item is refused before the tool runs', async () => {
    const { ctx } = await mount()
    const todos = [{ content: '', status: 'doing' }]
    const result = await ctx.tools.execute(testExecution('todo', { todos }))
    expect(result.error?.code).toBe('TOOL_INVALID_ARGUMENTS')
    expect(result.content[0]?.text).toMatch(/todos\.0\.content|todos\[0\]\.content/)
  })
})

describe('the card', () => {
  it('opens compact and quiet: kind think, the count in the title, no content', async () => {
    const { ctx } = await mount()
    expect(ctx.tools.presentCall('todo', { todos: TODOS })).toEqual({
      title: 'Update plan (1 of 3 done)',
      kind: 'think',
      quiet: true,
    })
  })

  it('a finished call carries the whole list as the plan, priorities filled in', async () => {
    const { ctx } = await mount()
    const result = { content: [{ type: 'text' as const, text: 'ok' }], isError: false }
    expect(ctx.tools.presentResult('todo', { todos: TODOS }, result)).toEqual({
      title: 'Update plan (1 of 3 done)',
      plan: [
        { content: 'Read the parser', status: 'completed', priority: 'medium' },
        { content: 'Fix the off-by-one', status: 'in_progress', priority: 'high' },
        { content: 'Run the tests', status: 'pending', priority: 'low' },
      ],
    })
  })

  it('a failed call sets no plan', async () => {
    const { ctx } = await mount()
    const failed = { content: [{ type: 'text' as const, text: 'Error: no' }], isError: true }
    expect(ctx.tools.presentResult('todo', { todos: TODOS }, failed)).toBeUndefined()
  })
})

describe('loading and disposing', () => {
  it('registers the tool and its prompt section and removes both on dispose', async () => {
    const { ctx, plan } = await mount()
    expect(ctx.tools.names()).toEqual(['todo'])
    expect(ctx.systemPrompt.sections().map((section) => section.name)).toEqual(['tool-plan/todo'])
    const { system, tools } = ctx.systemPrompt.assemble()
    expect(system).toContain('three or more distinct steps')
    expect(system).toContain('exactly one item is `in_progress`')
    expect(tools.map((tool) => tool.name)).toEqual(['todo'])
    await plan.dispose()
    expect(ctx.tools.names()).toEqual([])
    expect(ctx.systemPrompt.sections()).toEqual([])
  })
})
