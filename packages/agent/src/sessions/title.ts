// A session's title, the one rule every place that shows one uses (the stored header that
// `session/list` reads, a UI's title update): the first line of the first user message, trimmed
// and cut to 80 characters with `…`. Pure.

/** The longest title kept, `…` included. */
export const TITLE_MAX_CHARS = 80

/** The title of a session whose first user message is `text`. */
export function sessionTitleOf(text: string): string {
  const line = text.trim().split('\n', 1)[0]?.trim() ?? ''
  return line.length <= TITLE_MAX_CHARS ? line : `${line.slice(0, TITLE_MAX_CHARS - 1)}…`
}
