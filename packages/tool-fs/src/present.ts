// Shared pieces of the tools' presentation: the path shown in a title, the clipped edit
// input, a diff block that stays small for large files, and a failed call's card in the
// titles' terms (workspace paths relative).
// Pure and total (never throws): presentation runs on whatever arguments a UI replays.
import { isAbsolute, relative, sep } from 'node:path'
import type {
  ToolPresentationContent,
  ToolPresentationView,
  ToolResultPresentation,
} from '@deepseek-ai/dsh-tools'

/** Each side of the edit clip keeps this many UTF-16 code units before `…`. */
export const CLIP_CHARS = 40
/** Texts with at most this many lines (and DIFF_WHOLE_MAX_CHARS) are shown whole in a diff. */
export const DIFF_WHOLE_MAX_LINES = 400
export const DIFF_WHOLE_MAX_CHARS = 64 * 1024
/** Unchanged lines shown around a change in a hunk. */
export const DIFF_CONTEXT_LINES = 3

/** `file_path` as given, or relative to `view.cwd` when it lies inside it. */
export function titlePath(filePath: string, view?: ToolPresentationView): string {
  const cwd = view?.cwd
  if (cwd === undefined || !isAbsolute(filePath) || !isAbsolute(cwd)) return filePath
  const rel = relative(cwd, filePath)
  if (rel === '' || rel === '..' || rel.startsWith('../') || rel.startsWith('..\\')) return filePath
  return isAbsolute(rel) ? filePath : rel
}

/** Clips to CLIP_CHARS code units plus `…`, never splitting a surrogate pair. */
export function clip(text: string): string {
  if (text.length <= CLIP_CHARS) return text
  const code = text.charCodeAt(CLIP_CHARS - 1)
  const end = code >= 0xd800 && code <= 0xdbff ? CLIP_CHARS - 1 : CLIP_CHARS
  return `${text.slice(0, end)}…`
}

/** `"old…" → "new…"`: each side clipped, then JSON-quoted (quotes, newlines escaped). */
export function formatEditClip(oldString: string, newString: string): string {
  return `${JSON.stringify(clip(oldString))} → ${JSON.stringify(clip(newString))}`
}

/** 1-based line of the first difference between two texts (1 when they are equal). */
export function firstChangedLine(oldText: string, newText: string): number {
  const length = Math.min(oldText.length, newText.length)
  let i = 0
  while (i < length && oldText.charCodeAt(i) === newText.charCodeAt(i)) i++
  let line = 1
  for (let at = oldText.indexOf('\n'); at !== -1 && at < i; at = oldText.indexOf('\n', at + 1)) {
    line++
  }
  return line
}

function isSmall(text: string): boolean {
  if (text.length > DIFF_WHOLE_MAX_CHARS) return false
  let lines = 1
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (++lines > DIFF_WHOLE_MAX_LINES) return false
  }
  return true
}

/** The first `max` lines of a text (its line endings kept). */
export function headLines(text: string, max: number): string {
  let at = -1
  for (let n = 0; n < max; n++) {
    at = text.indexOf('\n', at + 1)
    if (at === -1) return text
  }
  return text.slice(0, at + 1)
}

/**
 * A diff block of a whole-file change. Small texts are shown whole; otherwise one hunk from
 * the first to the last changed line with DIFF_CONTEXT_LINES of context on each side.
 */
export function diffBlock(
  path: string,
  oldText: string | null,
  newText: string,
): ToolPresentationContent {
  if (oldText === null) {
    const shown = isSmall(newText) ? newText : headLines(newText, DIFF_WHOLE_MAX_LINES)
    return { type: 'diff', path, oldText: null, newText: shown }
  }
  if (isSmall(oldText) && isSmall(newText)) return { type: 'diff', path, oldText, newText }
  const before = oldText.split('\n')
  const after = newText.split('\n')
  let head = 0
  while (head < before.length && head < after.length && before[head] === after[head]) head++
  let tail = 0
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  ) {
    tail++
  }
  const from = Math.max(0, head - DIFF_CONTEXT_LINES)
  const keepTail = Math.max(0, tail - DIFF_CONTEXT_LINES)
  return {
    type: 'diff',
    path,
    oldText: before.slice(from, before.length - keepTail).join('\n'),
    newText: after.slice(from, after.length - keepTail).join('\n'),
  }
}

/**
 * A failed call's card: the error as the model got it, with every path inside the workspace
 * (`view.cwd`) made relative to it, as the titles show them. Without a cwd, as the model got it.
 */
export function presentFailure(
  result: { content: readonly { text: string }[] },
  view?: ToolPresentationView,
): ToolResultPresentation {
  const cwd = view?.cwd
  const content = result.content.map(({ text }): ToolPresentationContent => ({
    type: 'text',
    text: cwd === undefined ? text : relativeInside(text, cwd),
  }))
  return { content }
}

/** `text` with `<cwd>/rest` written `rest` wherever a path starts (not inside a longer path). */
export function relativeInside(text: string, cwd: string): string {
  if (!isAbsolute(cwd) || cwd === sep) return text
  const base = cwd.endsWith(sep) ? cwd : cwd + sep
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return text.replace(new RegExp(`(^|[\\s"'\`(\\[<=,:])${escaped}(?=[^\\s/])`, 'g'), '$1')
}
