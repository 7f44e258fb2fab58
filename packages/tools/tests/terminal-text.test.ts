import { describe, expect, it } from 'vitest'
import { plainTerminalText, terminalText } from '../src/terminal-text'

describe('terminal text', () => {
  it('keeps colours and removes the clipboard, the title, screen clears and resets', () => {
    expect(terminalText('\x1b]52;c;aGVsbG8=\x07ok')).toBe('ok')
    expect(terminalText('\x1b]0;title\x1b\\x')).toBe('x')
    expect(terminalText('a\x1b[2Jb\x1b[Hc')).toBe('abc')
    expect(terminalText('\x1b[1;31mred\x1b[0m')).toBe('\x1b[1;31mred\x1b[0m')
    expect(terminalText('\x1bcreset')).toBe('reset')
    expect(terminalText('\x1bP1$qm\x1b\\dcs')).toBe('dcs')
    expect(terminalText('\x9b2Jc1')).toBe('2Jc1')
  })

  it('keeps line ends, tabs and backspaces and removes bells and a lone escape', () => {
    expect(terminalText('bell\x07\ttab\r\nx\b')).toBe('bell\ttab\r\nx\b')
    expect(terminalText('esc\x1b\nnl')).toBe('esc\nnl')
  })

  it('drops a sequence cut at the end of a piece whole', () => {
    expect(terminalText('cut\x1b]52;c;abc')).toBe('cut')
    expect(terminalText('cut\x1b[')).toBe('cut')
  })

  it('a console block loses the colours too', () => {
    expect(plainTerminalText('\x1b[31mred\x1b[0m\x1b]2;t\x07')).toBe('red')
  })
})
