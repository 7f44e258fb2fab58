// The session's context and options on the wire: usage, compactions with and without the
// client's capability, and the model option with its refusals.
import { describe, expect, it } from 'vitest'
import { pickOption, toAcpConfigOptions } from '../src/wire/config-options'
import type { AcpOptionState } from '../src/wire/config-options'
import { presentSessionEvent } from '../src/cards/presenter'

const turnId = 't1'
const compacted = {
  type: 'context/compacted' as const,
  turnId,
  compactionId: 'k1',
  trigger: 'auto' as const,
  replaced: [
    {
      callId: 'a',
      content: '[read of a.ts (10 lines) elided to save context; run it again if needed]',
    },
    {
      callId: 'b',
      content: '[read of b.ts (10 lines) elided to save context; run it again if needed]',
    },
    { callId: 'c', content: 'cut' },
  ],
  elided: 2,
  summary: { text: '- did things', opening: 'hi\n\n- did things', keep: 3 },
  before: 900,
  after: 300,
}

describe('the context on the wire', () => {
  it('a usage event is a usage_update with the cost', () => {
    const event = {
      type: 'context/usage' as const,
      turnId,
      used: 1234.4,
      size: 131_072,
      cost: { amount: 0.01, currency: 'USD' },
    }
    expect(presentSessionEvent(event, { cwd: '/w' })).toEqual([
      {
        sessionUpdate: 'usage_update',
        used: 1234,
        size: 131_072,
        cost: { amount: 0.01, currency: 'USD' },
      },
    ])
  })

  it('with the capability a compaction is its summary chunk and a completed compaction_update', () => {
    const start = {
      type: 'context/compacting' as const,
      turnId,
      compactionId: 'k1',
      trigger: 'auto' as const,
    }
    const context = { cwd: '/w', compaction: true }
    expect(presentSessionEvent(start, context)).toEqual([
      { sessionUpdate: 'compaction_update', compactionId: 'k1', status: 'in_progress' },
    ])
    expect(presentSessionEvent(compacted, context)).toEqual([
      {
        sessionUpdate: 'compaction_summary_chunk',
        compactionId: 'k1',
        content: { type: 'text', text: '- did things' },
      },
      { sessionUpdate: 'compaction_update', compactionId: 'k1', status: 'completed' },
    ])
  })

  it('without it a compaction is one short message and its start shows nothing', () => {
    const start = {
      type: 'context/compacting' as const,
      turnId,
      compactionId: 'k1',
      trigger: 'auto' as const,
    }
    expect(presentSessionEvent(start, { cwd: '/w' })).toEqual([])
    expect(presentSessionEvent(compacted, { cwd: '/w' })).toEqual([
      {
        sessionUpdate: 'agent_message_chunk',
        content: {
          type: 'text',
          text: '\n\nContext compacted: 2 tool outputs elided, older turns summarised, 1 recent output cut.\n\n',
        },
      },
    ])
  })

  it('a summary that failed with nothing else done is a failed compaction with its reason', () => {
    const failed = {
      ...compacted,
      replaced: [],
      elided: 0,
      summary: undefined,
      summaryError: 'model down',
    }
    expect(presentSessionEvent(failed, { cwd: '/w', compaction: true })).toEqual([
      {
        sessionUpdate: 'compaction_update',
        compactionId: 'k1',
        status: 'failed',
        error: 'The summary could not be made: model down',
      },
    ])
  })
})

const modes = [
  { id: 'ask', name: 'Ask' },
  { id: 'read-only', name: 'Read only', description: 'Reads only' },
]
const state = (extra: Partial<AcpOptionState> = {}): AcpOptionState => ({
  modes,
  mode: 'ask',
  models: ['a', 'b'],
  model: 'c',
  ...extra,
})
const thought = {
  levels: ['off', 'high', 'max'],
  default: 'high',
  descriptions: { off: 'thinking disabled' },
}

describe('the config options', () => {
  it('mode, then model (the current one added when the list lacks it)', () => {
    const [mode, model, ...rest] = toAcpConfigOptions(state())
    expect(rest).toEqual([])
    expect(mode).toMatchObject({ id: 'mode', category: 'mode', currentValue: 'ask' })
    expect(mode && 'options' in mode && mode.options).toEqual([
      { value: 'ask', name: 'Ask' },
      { value: 'read-only', name: 'Read only', description: 'Reads only' },
    ])
    expect(model).toMatchObject({
      id: 'model',
      category: 'model',
      type: 'select',
      currentValue: 'c',
    })
    expect(model && 'options' in model && model.options).toEqual([
      { value: 'c', name: 'c' },
      { value: 'a', name: 'a' },
      { value: 'b', name: 'b' },
    ])
  })

  it('no modes, no mode option; a thinking model adds thought_level at its level or default', () => {
    expect(toAcpConfigOptions(state({ modes: [], mode: undefined })).map((o) => o.id)).toEqual([
      'model',
    ])
    const options = toAcpConfigOptions(state({ thought }))
    expect(options.at(-1)).toMatchObject({
      id: 'thought_level',
      category: 'thought_level',
      currentValue: 'high',
    })
    const chosen = toAcpConfigOptions(state({ thought, thoughtLevel: 'max' })).at(-1)
    expect(chosen).toMatchObject({ currentValue: 'max' })
    const stale = toAcpConfigOptions(state({ thought, thoughtLevel: 'medium' })).at(-1)
    expect(stale).toMatchObject({ currentValue: 'high' })
  })

  it('an unknown option or value is -32602 naming the valid ones', () => {
    expect(pickOption({ configId: 'model', value: 'b' }, state())).toEqual({
      option: 'model',
      value: 'b',
    })
    expect(pickOption({ configId: 'mode', value: 'read-only' }, state())).toEqual({
      option: 'mode',
      value: 'read-only',
    })
    expect(() => pickOption({ configId: 'model', value: 'z' }, state())).toThrow(
      /Unknown model "z": the models are: a, b\./,
    )
    expect(() => pickOption({ configId: 'mode', value: 'yolo' }, state())).toThrow(
      /Unknown mode "yolo": the modes are: ask, read-only\./,
    )
    expect(() => pickOption({ configId: 'thought_level', value: 'max' }, state())).toThrow(
      /Unknown config option "thought_level": the options are: mode, model\./,
    )
    const refusal = (() => {
      try {
        return pickOption({ configId: 'model', value: true }, state({ models: ['a'] }))
      } catch (error) {
        return error
      }
    })()
    expect(refusal).toMatchObject({ code: -32602, data: { availableValues: ['a'] } })
  })
})
