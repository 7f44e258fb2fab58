// Command cards: output shows only while the call runs, as terminal updates for a client that
// shows terminals and as a console tail (the last 16 KiB) for any other; the end keeps the
// terminal and names the exit, with the final output first when none went out live.
import { describe, expect, it } from 'vitest'
import { ACP_LIVE_TAIL_CHARS, lastChars, toAcpTerminalEnd } from '../src/cards/terminal-cards'
import { ToolCards } from '../src/cards/tool-cards'
import type { AcpToolCall } from '../src/wire/to-acp'

const lead = { type: 'content' as const, content: { type: 'text' as const, text: 'Run tests' } }
const opening: AcpToolCall = {
  sessionUpdate: 'tool_call',
  toolCallId: 'b1',
  title: 'npm test',
  kind: 'execute',
  status: 'in_progress',
  content: [lead],
}

describe('live output on a command card', () => {
  it('goes out only once the call runs', () => {
    const cards = new ToolCards(true)
    cards.hold('b1', opening, { terminalCwd: '/w' })
    expect(cards.output('b1', 'early')).toEqual([])
    const [started] = cards.start('b1')
    expect(started).toMatchObject({
      content: [lead, { type: 'terminal', terminalId: 'b1' }],
      _meta: { terminal_info: { terminal_id: 'b1', cwd: '/w' } },
    })
    expect(cards.output('b1', 'one\n')).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'b1',
        _meta: { terminal_output: { terminal_id: 'b1', data: 'one\n' } },
      },
    ])
  })

  it('is a console tail of the last 16 KiB for a client without terminals', () => {
    const cards = new ToolCards(false)
    cards.hold('b1', opening, { terminalCwd: '/w' })
    cards.start('b1')
    cards.output('b1', 'x'.repeat(ACP_LIVE_TAIL_CHARS))
    const [update] = cards.output('b1', 'END')
    const texts = (update as { content: { content: { text: string } }[] }).content.map(
      (block) => block.content.text,
    )
    expect(texts[0]).toBe('Run tests')
    expect(texts[1]).toBe(`\`\`\`console\n${'x'.repeat(ACP_LIVE_TAIL_CHARS - 3)}END\n\`\`\``)
  })

  it('reaches the terminal with its colours but without clipboard, title or screen clear', () => {
    const cards = new ToolCards(true)
    cards.hold('b1', opening, { terminalCwd: '/w' })
    cards.start('b1')
    const raw = '\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;owned\x07\x1b[2J\x1b[32mok\x1b[0m\n'
    expect(cards.output('b1', raw)).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'b1',
        _meta: { terminal_output: { terminal_id: 'b1', data: '\x1b[32mok\x1b[0m\n' } },
      },
    ])
  })

  it('is not shown on a card that is not a command', () => {
    const cards = new ToolCards(true)
    cards.hold('r1', { ...opening, toolCallId: 'r1' })
    cards.start('r1')
    expect(cards.output('r1', 'text')).toEqual([])
  })
})

describe('the end of a command card', () => {
  const result = {
    sessionUpdate: 'tool_call_update' as const,
    toolCallId: 'b1',
    status: 'failed' as const,
  }
  const end = { output: 'boom\n', exitCode: 2, signal: null }

  it('sends the final output first when none went out live', () => {
    expect(toAcpTerminalEnd(result, [lead], end, false)).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'b1',
        _meta: { terminal_output: { terminal_id: 'b1', data: 'boom\n' } },
      },
      {
        ...result,
        content: [lead, { type: 'terminal', terminalId: 'b1' }],
        _meta: { terminal_exit: { terminal_id: 'b1', exit_code: 2, signal: null } },
      },
    ])
  })

  it('sends only the exit after live output', () => {
    expect(toAcpTerminalEnd(result, [lead], end, true)).toHaveLength(1)
  })
})

describe('the tail', () => {
  it('never starts inside a surrogate pair', () => {
    expect(lastChars('a😀b', 2)).toBe('b')
    expect(lastChars('a😀b', 3)).toBe('😀b')
  })
})
