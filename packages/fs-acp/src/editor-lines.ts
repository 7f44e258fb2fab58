// Versions of some lines of an editor's buffer. A ranged fs/read_text_file (`line`/`limit`)
// gives the lines of a range, not the whole buffer, so what its caller observed is those lines:
// their version names where they start and how many there are, and hashes them. A later read
// of the whole buffer (which a change needs anyway) tells whether those lines are still the
// same, so typing elsewhere in the buffer does not make them stale, and any change to them
// does. Lines are compared by their text (split at `\n`, a `\r` before it dropped, no BOM),
// not their bytes: editors differ in whether the last line of a range keeps its newline.
// Pure values, no I/O.
import { createHash } from 'node:crypto'
import type { FsVersion } from '@deepseek-ai/dsh-fs'
import { editorVersion, splitBom } from './editor-text'

const PREFIX = 'editor-lines:'

/** What a version of some lines stands for. */
export interface LinesVersion {
  /** 1-based first line. */
  line: number
  /** How many lines, from `line`. */
  count: number
  hash: string
}

/** The lines of a text by the read tool's rule: a trailing newline adds no line; '' has none. */
export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
}

/** The version of `lines`, the lines of a buffer from the 1-based `line` on. */
export function linesVersion(line: number, lines: readonly string[]): FsVersion {
  return `${PREFIX}${line}:${lines.length}:${hashLines(lines)}`
}

/** What `version` stands for when it is a version of some lines; else `undefined`. */
export function parseLinesVersion(version: FsVersion): LinesVersion | undefined {
  if (!version.startsWith(PREFIX)) return undefined
  const [line, count, hash] = version.slice(PREFIX.length).split(':')
  if (line === undefined || count === undefined || hash === undefined) return undefined
  return { line: Number(line), count: Number(count), hash }
}

/** True when the lines `version` stands for are, in the whole readable `text`, as they were. */
export function linesHold(version: LinesVersion, text: string): boolean {
  const lines = splitLines(text).slice(version.line - 1, version.line - 1 + version.count)
  return lines.length === version.count && hashLines(lines) === version.hash
}

/**
 * True when a caller that observed `version` (of the whole buffer, or of some of its lines) sees
 * the same in the editor's `current` text (a leading U+FEFF included).
 */
export function editorVersionHolds(version: FsVersion, current: string): boolean {
  if (version === editorVersion(current)) return true
  const lines = parseLinesVersion(version)
  return lines !== undefined && linesHold(lines, splitBom(current).text)
}

/**
 * The text of `limit` lines from the 1-based `line` in `text`: from the start of that line to
 * the start of the line after the last (the end of the text when it ends first), as an editor
 * answers a ranged read.
 */
export function sliceLines(text: string, line: number, limit: number): string {
  const start = lineStart(text, line)
  if (start === undefined) return ''
  const end = lineStart(text.slice(start), limit + 1)
  return end === undefined ? text.slice(start) : text.slice(start, start + end)
}

/** Offset of the start of the 1-based `line` in `text`, or `undefined` past the end. */
function lineStart(text: string, line: number): number | undefined {
  let at = 0
  for (let n = 1; n < line; n++) {
    const newline = text.indexOf('\n', at)
    if (newline === -1 || newline === text.length - 1) return undefined
    at = newline + 1
  }
  return at
}

function hashLines(lines: readonly string[]): string {
  return createHash('sha256').update(lines.join('\n'), 'utf8').digest('hex').slice(0, 32)
}
