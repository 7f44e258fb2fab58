import { describe, expect, it } from 'vitest'
import { ChatStreamAssembler, toFinishReason } from '../src/stream'
import type { LlmError, LlmStreamEvent } from '@deepseek-ai/dsh-llm'

const chunk = (value: unknown): string => JSON.stringify(value)
const delta = (value: unknown, finish: string | null = null): string =>
  chunk({ choices: [{ index: 0, delta: value, finish_reason: finish }] })

function run(payloads: string[]): LlmStreamEvent[] {
  const assembler = new ChatStreamAssembler()
  const events = payloads.flatMap((data) => assembler.push(data))
  return [...events, ...assembler.end()]
}

function failure(payloads: string[]): LlmError {
  try {
    run(payloads)
  } catch (error) {
    return error as LlmError
  }
  throw new Error('the stream was accepted')
}

describe('content and reasoning', () => {
  it('content and reasoning deltas stream as they come, reasoning first in a delta', () => {
    const events = run([
      delta({ role: 'assistant', content: '' }),
      delta({ reasoning_content: 'think', content: null }),
      delta({ content: 'Hi' }),
      delta({}, 'stop'),
      '[DONE]',
    ])
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'think' },
      { type: 'text-delta', text: 'Hi' },
      { type: 'finish', reason: 'stop' },
    ])
  })

  it('usage after the finish reason lands on the finish event', () => {
    const events = run([
      delta({ content: 'x' }, 'stop'),
      chunk({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 3 } }),
      '[DONE]',
    ])
    expect(events.at(-1)).toEqual({
      type: 'finish',
      reason: 'stop',
      usage: { inputTokens: 12, outputTokens: 3 },
    })
  })

  it('choices other than the first are ignored', () => {
    const events = run([
      chunk({ choices: [{ index: 1, delta: { content: 'other' } }] }),
      delta({ content: 'mine' }, 'stop'),
      '[DONE]',
    ])
    expect(events.filter((event) => event.type === 'text-delta')).toEqual([
      { type: 'text-delta', text: 'mine' },
    ])
  })
})

describe('tool calls', () => {
  it('calls are assembled by index across deltas and emitted when the choice finishes', () => {
    const assembler = new ChatStreamAssembler()
    const early = [
      delta({
        tool_calls: [
          { index: 0, id: 'a', type: 'function', function: { name: 'read', arguments: '' } },
        ],
      }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"file_' } }] }),
      delta({ tool_calls: [{ index: 1, id: 'b', function: { name: 'edit', arguments: '{"x"' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: 'path":"a"}' } }] }),
      delta({ tool_calls: [{ index: 1, function: { arguments: ':1}' } }] }),
    ].flatMap((data) => assembler.push(data))
    expect(early).toEqual([])
    expect(assembler.push(delta({}, 'tool_calls'))).toEqual([
      { type: 'tool-call', id: 'a', name: 'read', arguments: '{"file_path":"a"}' },
      { type: 'tool-call', id: 'b', name: 'edit', arguments: '{"x":1}' },
    ])
    expect(assembler.push('[DONE]')).toEqual([{ type: 'finish', reason: 'tool-calls' }])
  })

  it('a call with no id gets a generated one and empty arguments become an empty object', () => {
    const events = run([
      delta({ tool_calls: [{ index: 0, function: { name: 'list' } }] }, 'tool_calls'),
      '[DONE]',
    ])
    const call = events[0] as { type: string; id: string; arguments: string }
    expect(call.type).toBe('tool-call')
    expect(call.id).toMatch(/^call_.+/)
    expect(call.arguments).toBe('{}')
  })

  it('calls under a stop finish reason still finish as tool-calls', () => {
    const events = run([
      delta(
        { tool_calls: [{ index: 0, id: 'a', function: { name: 'read', arguments: '{}' } }] },
        'stop',
      ),
      '[DONE]',
    ])
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' })
  })

  it('a call without a name breaks the stream', () => {
    const error = failure([
      delta({ tool_calls: [{ index: 0, id: 'a', function: { arguments: '{}' } }] }, 'tool_calls'),
    ])
    expect([error.code, error.message]).toEqual([
      'LLM_STREAM',
      'the model sent tool call #0 without a name',
    ])
  })
})

describe('finish', () => {
  it.each([
    ['stop', false, 'stop'],
    ['tool_calls', true, 'tool-calls'],
    ['length', false, 'length'],
    ['length', true, 'length'],
    ['content_filter', false, 'error'],
  ] as const)('finish reason %s (calls: %s) maps to %s', (reason, calls, expected) => {
    expect(toFinishReason(reason, calls)).toBe(expected)
  })

  it('a body that ends after the finish reason without done still finishes', () => {
    expect(run([delta({ content: 'a' }, 'length')]).at(-1)).toEqual({
      type: 'finish',
      reason: 'length',
    })
  })

  it('a body that ends before any finish is an early end', () => {
    const error = failure([delta({ content: 'half' })])
    expect([error.code, error.message]).toEqual([
      'LLM_STREAM',
      "the model's stream ended early (no finish reason and no [DONE])",
    ])
  })

  it('payloads after done are ignored', () => {
    const assembler = new ChatStreamAssembler()
    assembler.push(delta({}, 'stop'))
    assembler.push('[DONE]')
    expect(assembler.push(delta({ content: 'late' }))).toEqual([])
    expect(assembler.end()).toEqual([])
  })
})

describe('bad payloads', () => {
  it('a payload that is not json is refused with its text', () => {
    const error = failure(['{oops'])
    expect([error.code, error.message]).toEqual([
      'LLM_STREAM',
      "the model's stream sent a chunk that is not JSON: {oops",
    ])
  })

  it('a payload that is not an object is refused', () => {
    expect(failure(['[1,2]']).message).toBe(
      "the model's stream sent a chunk that is not an object: [1,2]",
    )
  })

  it('an error object in the stream is reported with the server message', () => {
    const error = failure([chunk({ error: { message: 'overloaded', code: 503 } })])
    expect([error.code, error.message]).toEqual([
      'LLM_STREAM',
      'the model server reported an error mid-stream: overloaded',
    ])
  })
})
