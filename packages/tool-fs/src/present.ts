// Shared pieces of the tools' presentation: the path shown in a title, the clipped edit
// input, the sizes a diff is shown whole up to (./text-change makes a write's diff), and a
// failed call's card in the titles' terms (workspace paths relative).
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

/** At most DIFF_WHOLE_MAX_LINES lines and DIFF_WHOLE_MAX_CHARS characters: shown whole. */
export function isSmall(text: string): boolean {
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
