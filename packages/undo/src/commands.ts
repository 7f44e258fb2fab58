// `/undo` and `/redo` as a session's slash commands, and the short reply each gives: the turn,
// then each file and what happened to it. Both run without the model and without a turn.
import { isAbsolute, relative, sep } from 'node:path'
import type { SessionCommand } from '@deepseek-ai/dsh-agent'
import type { RestoreDirection } from './restore'
import type { SessionUndo, UndoResult } from './session-undo'
import type { UndoStoreKind } from './types'

/** The one line a session without git is told: what its undo cannot cover. */
export const NO_GIT_LINE =
  "git is not available: /undo puts back only what the file tools wrote; commands' changes cannot be undone."

const HINT = 'overwrite: also put back files changed since the turn'

/**
 * The commands, offered as the session opens without waiting for git to be looked for; `kind`
 * (asked at a reply) says what the replies cover.
 */
export function undoCommands(
  undo: SessionUndo,
  kind: () => Promise<UndoStoreKind>,
  cwd: string,
): SessionCommand[] {
  const run = (direction: RestoreDirection) => async (text: string) => {
    const overwrite = /^overwrite$/i.test(text)
    if (text !== '' && !overwrite)
      return { reply: `/${direction} takes no text but "overwrite" (${HINT}).` }
    const result = await undo.restore(direction, overwrite)
    return { reply: undoReply(direction, result, await kind(), cwd) }
  }
  return [
    {
      name: 'undo',
      description:
        "Undo the last turn's file changes (edits, new and deleted files, commands' changes where git is available; not ignored files), never over a change made since unasked",
      hint: HINT,
      run: run('undo'),
    },
    {
      name: 'redo',
      description: 'Redo the turn /undo took back last, never over a change made since unasked',
      hint: HINT,
      run: run('redo'),
    },
  ]
}

/** The reply: which turn, each file and what happened to it, and what was left and why. */
export function undoReply(
  direction: RestoreDirection,
  { turn, outcomes }: UndoResult,
  kind: UndoStoreKind,
  cwd: string,
): string {
  const lines: string[] = []
  if (turn === undefined) {
    lines.push(
      direction === 'undo'
        ? 'Nothing to undo: no earlier turn of this session changed files.'
        : 'Nothing to redo: no turn was undone since the last change.',
    )
  } else {
    const name = turn.title === '' ? 'the last turn' : `the turn "${turn.title}"`
    const verb = direction === 'undo' ? 'Undid' : 'Redid'
    const count = outcomes.length === 1 ? '1 file' : `${outcomes.length} files`
    lines.push(`${verb} ${name} (${count}):`)
    for (const { path, what } of outcomes) lines.push(`- ${shown(path, cwd)}: ${what}`)
    if (outcomes.some((outcome) => outcome.what.startsWith('kept: changed since')))
      lines.push(
        `Files changed since the turn were kept, and the turn stays the next to ${direction}: \`/${direction} overwrite\` puts them back too.`,
      )
    if (turn.skipped.length > 0)
      lines.push(`Not kept by the snapshot (too large): ${turn.skipped.join(', ')}.`)
  }
  if (kind === 'files') lines.push(NO_GIT_LINE)
  return lines.join('\n')
}

function shown(path: string, cwd: string): string {
  const inside = relative(cwd, path)
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)
    ? inside.split(sep).join('/')
    : path
}
