// Types of what a tool gives back and how its calls present themselves: the content blocks
// and images a result carries, and the cards (title, kind, locations, content, terminal, plan)
// a UI draws. Provider-neutral: no ACP (or other UI protocol) type appears here. Types only.

/** A block of tool output for the model. */
export type ToolContent = { type: 'text'; text: string }

/**
 * An image a tool's result carries for the model (base64 `data`, an `image/…` type), beside
 * its text; a host offers such a tool only to a model that takes images (`returnsImages`).
 */
export interface ToolImage {
  mimeType: string
  data: string
}

/**
 * What a tool's `execute` may return. A string is one text block. `isError` marks a result the
 * model reads as it is but a UI shows as failed (a command that exited non-zero).
 */
export type ToolOutput<D = unknown> =
  | string
  | ToolContent[]
  | { content: string | ToolContent[]; details?: D; isError?: boolean; images?: ToolImage[] }

export type ToolKind =
  'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'other'

/** A file a tool call reads or modifies; `line` is 1-based. */
export interface ToolLocation {
  path: string
  line?: number
}

/**
 * A block a UI can show on a tool card: text, a diff, an image (base64 `data`), or a link to a
 * resource the UI may open (`uri`, the `name` it reads as).
 */
export type ToolPresentationContent =
  | { type: 'text'; text: string }
  | { type: 'diff'; path: string; oldText: string | null; newText: string }
  | { type: 'image'; data: string; mimeType: string; uri?: string }
  | { type: 'link'; uri: string; name: string; title?: string; mimeType?: string }

/** How a tool call presents itself when it starts. */
export interface ToolCallPresentation {
  title: string
  kind?: ToolKind
  /** The salient input, short and human-readable. */
  rawInput?: unknown
  content?: ToolPresentationContent[]
  locations?: ToolLocation[]
  /** The call runs a command whose output streams (`output` progress): a UI may show a terminal. */
  terminal?: ToolTerminalCall
  /**
   * The call shows itself through what its result sets (a plan): a UI that shows that draws no
   * card for a call that succeeds; a failed one gets its card.
   */
  quiet?: boolean
  /**
   * The title while a person is asked about the call, read before its content (a command's
   * description, the command itself following once in the preview); the card takes `title`
   * back once the call runs. A summary (`rawInput`) equal to it is not repeated below it.
   */
  askTitle?: string
}

/** A call shown as a terminal: where its command runs (default: the session workspace). */
export interface ToolTerminalCall {
  cwd?: string
}

/** How a terminal call ended: its final output (as the model got it) and its exit. */
export interface ToolTerminalResult {
  output: string
  exitCode: number | null
  signal: string | null
}

/** One item of a plan: what to do, how far it is, how much it matters. */
export interface ToolPlanEntry {
  content: string
  status: 'pending' | 'in_progress' | 'completed'
  priority: 'high' | 'medium' | 'low'
}

/** How a finished tool call presents itself; absent fields keep the call's. */
export interface ToolResultPresentation {
  title?: string
  content?: ToolPresentationContent[]
  locations?: ToolLocation[]
  /**
   * The session's whole plan as the call left it: a UI shows it as the current plan, replacing
   * any earlier one, and the card itself stays compact (the list is not repeated on it).
   */
  plan?: ToolPlanEntry[]
  /** A terminal call's end (see ToolCallPresentation.terminal). */
  terminal?: ToolTerminalResult
}

/** Context a UI may give to presentation, such as the session workspace. */
export interface ToolPresentationView {
  cwd?: string
  /** The id of the session the card is for: the tools registered for it are found too. */
  session?: string
}
