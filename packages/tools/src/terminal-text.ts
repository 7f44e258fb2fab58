// What of a command's output may reach a person's terminal view: text, line ends, tabs and
// colours (SGR, `ESC [ … m`). Every other escape sequence is removed: OSC (the clipboard by
// OSC 52, the window title, links), DCS / APC / PM / SOS strings, cursor moves and screen
// clears (other CSI), single-character escapes (a terminal reset), C1 controls and the other
// C0 controls (a bell). A command's output is the command's to choose, and a command may be
// anything a model or a repository asked for; the person's terminal is not. A sequence cut at
// the end of a piece is dropped whole (the next piece's rest shows as text). Pure.

/* eslint-disable no-control-regex -- escape sequences are what these patterns match */
const SEQUENCE =
  /\x1b(?:\[([0-?]*)[ -/]*([@-~])|\][^\x07\x1b]*(?:\x07|\x1b\\|$)|[PX^_][^\x1b]*(?:\x1b\\|$)|[ -/]*[0-~]|$)|[\x00-\x07\x0b\x0c\x0e-\x1f\x7f\x80-\x9f]/g

/** `text` with every escape sequence but colours removed (for a terminal view). */
export function terminalText(text: string): string {
  return text.replace(SEQUENCE, (sequence: string, params?: string, final?: string) =>
    final === 'm' && /^[0-9;:]*$/.test(params ?? '') ? sequence : '',
  )
}

/** `text` with every escape sequence removed, colours too (for a console block in Markdown). */
export function plainTerminalText(text: string): string {
  return terminalText(text).replace(/\x1b\[[0-9;:]*m/g, '')
}
/* eslint-enable no-control-regex */
