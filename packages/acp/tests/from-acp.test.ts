import { RequestError } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { fromAcpPrompt } from '../src/from-acp'

function refusal(run: () => unknown): RequestError {
  try {
    run()
  } catch (error) {
    if (error instanceof RequestError) return error
    throw error
  }
  throw new Error('expected a RequestError')
}

describe('prompt content', () => {
  it('text blocks are joined as written', () => {
    expect(
      fromAcpPrompt([
        { type: 'text', text: 'fix ' },
        { type: 'text', text: 'the bug' },
      ]),
    ).toBe('fix the bug')
  })

  it('a file resource link becomes a mention of its path, spaced from its neighbours', () => {
    expect(
      fromAcpPrompt([
        { type: 'text', text: 'look at' },
        { type: 'resource_link', name: 'a.ts', uri: 'file:///w/a%20b.ts' },
        { type: 'text', text: 'please' },
      ]),
    ).toBe('look at @/w/a b.ts please')
  })

  it('a non-file resource link is mentioned by its uri', () => {
    expect(fromAcpPrompt([{ type: 'resource_link', name: 'x', uri: 'https://e.com/x' }])).toBe(
      '@https://e.com/x',
    )
  })
})

describe('refused prompts', () => {
  it('an image block is refused with invalid params naming its index and type', () => {
    const error = refusal(() =>
      fromAcpPrompt([
        { type: 'text', text: 'see' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ]),
    )
    expect(error.code).toBe(-32602)
    expect(error.message).toContain('prompt[1] is a "image" block')
  })

  it('audio and embedded resources are refused too', () => {
    expect(
      refusal(() => fromAcpPrompt([{ type: 'audio', data: 'AA', mimeType: 'audio/wav' }])).message,
    ).toContain('"audio"')
    const embedded = refusal(() =>
      fromAcpPrompt([{ type: 'resource', resource: { uri: 'file:///a', text: 'x' } }]),
    )
    expect(embedded.message).toContain('"resource"')
  })

  it('an empty or blank prompt is refused', () => {
    expect(refusal(() => fromAcpPrompt([])).message).toContain('prompt is empty')
    expect(refusal(() => fromAcpPrompt([{ type: 'text', text: '  \n ' }])).code).toBe(-32602)
  })
})
