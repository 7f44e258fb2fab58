// Context sources: what adds to a session's conversation besides the person and the model —
// the project's instruction files, for one. Before a turn's message and after each step's tool
// results the agent asks every source for notes; each note is logged (`context/note`) and sent
// as a user-side message in that place, so the request's prefix never changes under it (the
// server's prompt cache keeps hitting) and a loaded session rebuilds it from the log. A
// summary replaces the older conversation, notes included: what a source still holds to be
// true (`carried`) opens the conversation after it. Not the sources themselves (`knowledge`).
import type { LlmMessage } from '@deepseek-ai/dsh-llm'
import type { SessionEvent } from '../types'

/** One note a source adds: the text the model reads, what a person sees, the source's record. */
export interface ContextNote {
  text: string
  /** A line a UI shows the person (e.g. which files were loaded); none: not shown. */
  display?: string
  /** The source's own record of what it sent (kept in the log, read back on load). */
  data?: unknown
}

/** A source of notes for sessions whose agents are `A` (the package names it for `Agent`). */
export interface ContextSourceOf<A> {
  /** Names the source's notes in the log, where it finds its own when a session is loaded. */
  readonly name: string
  /**
   * The notes the model should read now: before the person's message of a turn, and after
   * each step's tool results. A source that fails is logged and skipped for that turn step.
   */
  notes(agent: A, signal: AbortSignal): Promise<ContextNote[]> | ContextNote[]
  /**
   * What a summary's opening must carry for the source (all it holds to be true now), since
   * the notes the summary replaces are gone from the conversation; none: nothing.
   */
  carried?(agent: A): string | undefined
}

export interface NoteGathering<A> {
  sources: readonly ContextSourceOf<A>[]
  agent: A
  turnId: string
  signal: AbortSignal
  history: LlmMessage[]
  append(event: SessionEvent): void
  warn(problem: string): void
}

/** Asks every source for its notes; each is logged and added to the history as it comes. */
export async function gatherNotes<A>(spec: NoteGathering<A>): Promise<void> {
  for (const source of spec.sources) {
    if (spec.signal.aborted) return
    let notes: ContextNote[]
    try {
      notes = await source.notes(spec.agent, spec.signal)
    } catch (error) {
      // A source that cannot say what it would add leaves the conversation as it is.
      spec.warn(`the context source ${source.name} failed: ${String(error)}`)
      continue
    }
    for (const note of notes) {
      spec.append({
        type: 'context/note',
        turnId: spec.turnId,
        source: source.name,
        text: note.text,
        ...(note.display !== undefined && { display: note.display }),
        ...(note.data !== undefined && { data: note.data }),
      })
      spec.history.push(noteMessage(source.name, note.text))
    }
  }
}

/** The user-side message a note is sent as. */
export function noteMessage(source: string, text: string): LlmMessage {
  return { role: 'user', content: text, note: source }
}

/** What every source carries through a summary, joined; `undefined` when none says anything. */
export function carriedBy<A>(sources: readonly ContextSourceOf<A>[], agent: A): string | undefined {
  const parts: string[] = []
  for (const source of sources) {
    try {
      const text = source.carried?.(agent)
      if (text !== undefined && text.trim() !== '') parts.push(text.trim())
    } catch {
      // A source that cannot say what it holds carries nothing; its next notes still come.
    }
  }
  return parts.length > 0 ? parts.join('\n\n') : undefined
}
