import { RequestError } from '@agentclientprotocol/sdk'
import { describe, expect, it } from 'vitest'
import { fromAcpElicitation } from '../src/sessions/elicit'
import { fromAcpPrompt as convert } from '../src/wire/from-acp'
import { MAX_EMBEDDED_BYTES } from '../src/wire/prompt-resources'

/** The session cwd the tests convert for. */
const CWD = '/w'
const fromAcpPrompt = (blocks: Parameters<typeof convert>[0]) => convert(blocks, CWD)

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

describe('embedded resources', () => {
  it('a text file is mentioned in place and attached after the message with its uri and relative path', () => {
    expect(
      fromAcpPrompt([
        { type: 'text', text: 'explain' },
        {
          type: 'resource',
          resource: {
            uri: 'file:///w/src/a%20b.ts',
            text: 'const a = 1',
            mimeType: 'text/x-typescript',
          },
        },
        { type: 'text', text: 'briefly' },
      ]),
    ).toBe(
      'explain @/w/src/a b.ts briefly\n\n' +
        '<attachment uri="file:///w/src/a%20b.ts" path="src/a b.ts" type="text/x-typescript">\n' +
        'const a = 1\n</attachment>',
    )
  })

  it('a file outside the cwd keeps its absolute path; another scheme only its uri', () => {
    const text = fromAcpPrompt([
      { type: 'resource', resource: { uri: 'file:///etc/hosts', text: 'x\n' } },
      { type: 'resource', resource: { uri: 'zed://rules/"q"', text: 'be brief' } },
    ])
    expect(text).toContain(
      '<attachment uri="file:///etc/hosts" path="/etc/hosts">\nx\n</attachment>',
    )
    expect(text).toContain('<attachment uri="zed://rules/&quot;q&quot;">\nbe brief\n</attachment>')
    expect(text.startsWith('@/etc/hosts @zed://rules/"q"\n\n')).toBe(true)
  })

  it('text over 256 KiB becomes a mention to read instead, with nothing attached', () => {
    const big = 'x'.repeat(MAX_EMBEDDED_BYTES + 1)
    const text = fromAcpPrompt([
      { type: 'resource', resource: { uri: 'file:///w/big.log', text: big } },
    ])
    expect(text).toBe(
      '@/w/big.log (attached, not included: 257 KiB of text, over the 256 KiB that are included; read the file with the read tool if it is needed)',
    )
  })

  it('text of exactly 256 KiB in UTF-8 is still attached, and one multi-byte character more is not', () => {
    const fits = 'é'.repeat(MAX_EMBEDDED_BYTES / 2)
    const attached = fromAcpPrompt([
      { type: 'resource', resource: { uri: 'file:///w/a', text: fits } },
    ])
    expect(attached).toContain('<attachment')
    const over = fromAcpPrompt([
      { type: 'resource', resource: { uri: 'file:///w/a', text: `${fits}é` } },
    ])
    expect(over).not.toContain('<attachment')
  })

  it('a blob becomes a mention to read instead', () => {
    const text = fromAcpPrompt([
      { type: 'text', text: 'what is in' },
      { type: 'resource', resource: { uri: 'file:///w/logo.png', blob: 'iVBORw0KGgo=' } },
    ])
    expect(text).toBe(
      'what is in @/w/logo.png (attached as binary content, not included; read the file with the read tool if it is needed)',
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

  it('audio is refused too', () => {
    expect(
      refusal(() => fromAcpPrompt([{ type: 'audio', data: 'AA', mimeType: 'audio/wav' }])).message,
    ).toContain('"audio"')
  })

  it('an empty or blank prompt is refused', () => {
    expect(refusal(() => fromAcpPrompt([])).message).toContain('prompt is empty')
    expect(refusal(() => fromAcpPrompt([{ type: 'text', text: '  \n ' }])).code).toBe(-32602)
  })
})

describe('elicitation answers', () => {
  it('null, a string or an unknown action is a cancel, never a crash', () => {
    for (const response of [null, undefined, 'accept', 42, {}, { action: 'maybe' }]) {
      expect(fromAcpElicitation(response)).toEqual({ action: 'cancel' })
    }
  })

  it('an accept keeps its form, and content that is no object reads as an empty form', () => {
    expect(fromAcpElicitation({ action: 'accept', content: { q: 'A' } })).toEqual({
      action: 'accept',
      content: { q: 'A' },
    })
    for (const content of [null, 'text', ['a'], undefined]) {
      expect(fromAcpElicitation({ action: 'accept', content })).toEqual({
        action: 'accept',
        content: {},
      })
    }
    expect(fromAcpElicitation({ action: 'decline' })).toEqual({ action: 'decline' })
  })
})
