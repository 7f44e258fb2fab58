// How instruction files read, pure: the caps (a file over its limit keeps its start; past the
// total the broadest files are left out), the note the model gets — framed as the project's
// words, which the system prompt and the person's messages outrank — the line a person is
// shown, and the listing `/instructions` answers with. Cordis-free, no I/O.

/** Characters one file may take; the rest of a longer file is cut (its start is kept). */
export const FILE_LIMIT = 20_000
/** Characters every file in effect may take together; past it the broadest are left out. */
export const TOTAL_LIMIT = 60_000

/** One file as a note shows it. */
export type NoteEntry =
  /** Its text, as cut to the limit; `change`: it was sent before, or its folder was loaded before. */
  | {
      type: 'file'
      path: string
      folder: string
      text: string
      length: number
      change?: 'changed' | 'new'
    }
  /** Left out to keep within the total. */
  | { type: 'left-out'; path: string; length: number }
  /** Sent before and now gone. */
  | { type: 'gone'; path: string }
  /** A link to a file outside the session's folders (`target`): not read. */
  | { type: 'linked-out'; path: string; target: string }

/** `text` cut to `limit` characters at a line end when one is near; `cut` says whether it was. */
export function cutToLimit(text: string, limit = FILE_LIMIT): { text: string; cut: boolean } {
  if (text.length <= limit) return { text, cut: false }
  const end = text.lastIndexOf('\n', limit)
  return { text: text.slice(0, end > limit / 2 ? end : limit), cut: true }
}

/**
 * The entries kept within `room` characters: the narrowest (last) first, the broadest left out
 * once the room is used up, in their order.
 */
export function fitTotal(
  entries: readonly Extract<NoteEntry, { type: 'file' | 'linked-out' }>[],
  room: number,
): NoteEntry[] {
  const fitted: NoteEntry[] = []
  let left = room
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!
    if (entry.type === 'linked-out') fitted.unshift(entry)
    else if (entry.text.length <= left) {
      left -= entry.text.length
      fitted.unshift(entry)
    } else fitted.unshift({ type: 'left-out', path: entry.path, length: entry.length })
  }
  return fitted
}

const PREAMBLE = [
  "The person's project has instruction files for agents working in it (AGENTS.md, CLAUDE.md and their local overlays). They are the project's words, not the system's:",
  "follow them as the project's conventions where they apply; where one conflicts with the system prompt or with what the person asks in this conversation, the system prompt and the person win.",
  "A file applies to its folder and everything below it; a deeper folder's file is more specific, and a later text of a file replaces the earlier one.",
].join(' ')

const MORE =
  "More of the project's instruction files (the project's words, as before: the system prompt and the person's messages win over them)."

export type NoteKind = 'first' | 'more' | 'carried'

/** The note's text: the framing, then each file in a block that names its path and folder. */
export function renderNote(entries: readonly NoteEntry[], kind: NoteKind, global?: string): string {
  const lead =
    kind === 'more' ? MORE : kind === 'carried' ? `${PREAMBLE}\nThe files in effect now:` : PREAMBLE
  const blocks = entries.map((entry) => renderEntry(entry, global))
  return ['<project-instructions>', lead, '', ...blocks, '</project-instructions>'].join('\n')
}

function renderEntry(entry: NoteEntry, global: string | undefined): string {
  switch (entry.type) {
    case 'gone':
      return `[${entry.path} was removed: its instructions no longer apply.]\n`
    case 'linked-out':
      return `[${entry.path} is a link to a file outside the session's folders; it was not read.]\n`
    case 'left-out':
      return `[${entry.path} (${entry.length} characters) was left out to keep all instruction files within ${TOTAL_LIMIT} characters; read it if you need it.]\n`
    case 'file': {
      const applies =
        entry.path === global
          ? "every project (the person's own file)"
          : `${entry.folder} and everything below it`
      const change =
        entry.change === 'changed'
          ? ' changed="its latest text, which replaces the one sent before"'
          : ''
      const cut =
        entry.text.length < entry.length
          ? `\n[cut: the file has ${entry.length} characters and only its first ${entry.text.length} are shown; read the file for the rest]`
          : ''
      return `<file path="${entry.path}" applies-to="${applies}"${change}>\n${entry.text.trim()}${cut}\n</file>\n`
    }
  }
}

/** The line a person is shown: which files were loaded, changed, cut, left out or removed. */
export function displayLine(entries: readonly NoteEntry[], show: (path: string) => string): string {
  const parts = entries.map((entry) => {
    const name = show(entry.path)
    if (entry.type === 'gone') return `${name} (removed)`
    if (entry.type === 'linked-out')
      return `${name} (not read: a link to ${entry.target}, outside the session's folders)`
    if (entry.type === 'left-out')
      return `${name} (left out: over the ${TOTAL_LIMIT}-character total)`
    const notes: string[] = []
    if (entry.change === 'changed') notes.push('changed')
    if (entry.text.length < entry.length)
      notes.push(`cut to ${entry.text.length} of ${entry.length} characters`)
    return notes.length > 0 ? `${name} (${notes.join(', ')})` : name
  })
  return `Project instructions: ${parts.join(', ')}`
}

/** What `/instructions` answers: each file loaded, what became of it, and the caps. */
export function instructionsListing(
  files:
    | readonly { path: string; state: string; length?: number; shown?: number; sameAs?: string }[]
    | undefined,
  show: (path: string) => string,
): string {
  const caps = `Caps: ${FILE_LIMIT} characters a file (a longer one keeps its start), ${TOTAL_LIMIT} in all (past that the broadest files are left out).`
  if (files === undefined) {
    return `No instruction files are loaded yet: they are read when the first message is sent.\n\n${caps}\n`
  }
  if (files.length === 0) return `No instruction files were found for this session.\n\n${caps}\n`
  const lines = files.map((file) => {
    const name = show(file.path)
    switch (file.state) {
      case 'same':
        return `- ${name}: the same text as ${show(file.sameAs ?? '')}, sent once`
      case 'left-out':
        return `- ${name}: left out (${file.length} characters; over the total)`
      default:
        return file.shown !== undefined && file.length !== undefined && file.shown < file.length
          ? `- ${name}: cut to its first ${file.shown} of ${file.length} characters`
          : `- ${name} (${file.length} characters)`
    }
  })
  return `Instruction files loaded in this session:\n${lines.join('\n')}\n\n${caps}\n`
}
