// The ask tools through the real registry: ask_user's form and the answers the model reads,
// decline; exit_plan_mode's review (approve into the chosen mode, keep planning with feedback,
// the no-forms path asking in every mode), the plan's entries; and what each session is offered.
import { Context } from 'cordis'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import type { ToolAgent } from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import { askForm, planEntries, registerAskTools } from '../src/index'
import type { AskChannel, ElicitAnswer, ElicitForm } from '../src/index'
import { testExecution, testSession } from '@deepseek-ai/dsh-tools/testing'

async function registry() {
  const ctx = new Context()
  await ctx.plugin(ToolRegistry)
  return ctx.tools
}

function channel(answers: ElicitAnswer[] | undefined, mode = 'plan') {
  const forms: ElicitForm[] = []
  const state = { mode }
  const value: AskChannel = {
    ...(answers && {
      elicit: async (form: ElicitForm) => {
        forms.push(form)
        return answers.shift()!
      },
    }),
    mode: () => state.mode,
    modeBeforePlan: () => 'auto-edit',
    setMode: (next) => void (state.mode = next),
    workModes: [
      { id: 'ask', name: 'Ask', approve: 'Approve, ask before changes' },
      { id: 'auto-edit', name: 'Edit automatically', approve: 'Approve, allow edits' },
    ],
  }
  return { value, forms, state }
}

const agentOf = (id: string): ToolAgent => ({ session: testSession({ id, cwd: '/w' }) })

const run = (tools: Awaited<ReturnType<typeof registry>>, name: string, args: unknown) =>
  tools.execute(testExecution(name, args, agentOf('s1')))

const design = {
  questions: [
    { question: 'Which design?', options: [{ label: 'A', description: 'small' }, { label: 'B' }] },
    {
      question: 'Which checks?',
      options: [{ label: 'unit' }, { label: 'e2e' }],
      multiSelect: true,
    },
  ],
}

describe('ask_user', () => {
  it('one form: a single choice, a multi choice, free answers; the labels come back', async () => {
    const tools = await registry()
    const { value, forms } = channel([
      { action: 'accept', content: { q1: 'B', q2: ['unit', 'e2e'], q2_other: ' lint too ' } },
    ])
    registerAskTools(tools, 's1', value)
    const result = await run(tools, 'ask_user', design)
    expect(forms[0]!.requestedSchema.properties.q1).toEqual({
      type: 'string',
      title: 'Which design?',
      oneOf: [
        { const: 'A', title: 'A: small' },
        { const: 'B', title: 'B' },
      ],
      default: 'A',
    })
    expect(forms[0]!.requestedSchema.properties.q2).toMatchObject({ type: 'array' })
    expect(forms[0]!.requestedSchema.required).toEqual(['q1'])
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'The person answered:\n- Which design? → B\n- Which checks? → unit, e2e; in their words: lint too',
      },
    ])
  })

  it('a decline comes back as such; without forms the tool is not there', async () => {
    const tools = await registry()
    registerAskTools(tools, 's1', channel([{ action: 'decline' }]).value)
    expect((await run(tools, 'ask_user', design)).content[0]).toMatchObject({
      text: expect.stringContaining('declined'),
    })
    registerAskTools(tools, 's2', channel(undefined).value)
    expect(tools.names('s2')).toEqual(['exit_plan_mode'])
    expect(askForm({ questions: [design.questions[0]!] }).message).toBe('Which design?')
  })
})

describe('exit_plan_mode', () => {
  it('keep planning passes the feedback on; approve switches to the chosen mode', async () => {
    const tools = await registry()
    const { value, forms, state } = channel([
      { action: 'accept', content: { decision: 'keep', feedback: 'smaller' } },
      { action: 'accept', content: { decision: 'approve', mode: 'ask' } },
    ])
    registerAskTools(tools, 's1', value)
    const kept = await run(tools, 'exit_plan_mode', { plan: '1. Read\n2. Write' })
    expect(kept.content[0]).toMatchObject({ text: expect.stringContaining('smaller') })
    expect(state.mode).toBe('plan')
    expect(forms[0]!.requestedSchema.properties.mode).toMatchObject({ default: 'auto-edit' })
    const approved = await run(tools, 'exit_plan_mode', { plan: '1. Read\n2. Write' })
    expect(approved.content[0]).toMatchObject({ text: expect.stringContaining('approved') })
    expect(state.mode).toBe('ask')
  })

  it('without forms the call asks in every mode and allowing it approves', async () => {
    const tools = await registry()
    const { value, state } = channel(undefined)
    registerAskTools(tools, 's1', value)
    const exec = testExecution('exit_plan_mode', { plan: '- a' }, agentOf('s1'))
    expect(await tools.access(exec)).toMatchObject({ askAlways: true })
    await tools.execute(exec)
    expect(state.mode).toBe('auto-edit')
  })

  it("a markdown plan's list items are the session's plan entries", () => {
    expect(planEntries('# Plan\n- one\n* [ ] two\n3) three\ntext').map((e) => e.content)).toEqual([
      'one',
      'two',
      'three',
    ])
  })
})
