// Types of the ctx.tools seam: tool definitions, executions, results, access and asking; what
// a result carries and how a call presents itself are in ./presentation-types. Provider-neutral.
import type { z } from 'zod'
import type {
  ToolContent,
  ToolImage,
  ToolOutput,
  ToolPresentationContent,
  ToolCallPresentation,
  ToolResultPresentation,
  ToolPresentationView,
} from './presentation-types'

export type * from './presentation-types'

/** The session a tool runs for: `header.cwd` is its workspace. */
export interface ToolSession {
  header: ToolSessionHeader
  /**
   * What the session shares with the sessions of its tree: a root session owns it, and each of
   * its child sessions holds the same object (so a child asks, tells and is judged as its root).
   */
  readonly scope: ToolSessionScope
}

/**
 * One root session's scope, given whole when the session is created and shared by reference with
 * its child sessions. A permission layer keys its "always allow" memory by this object.
 */
export interface ToolSessionScope {
  /** The root session's id: its session tools are registered under it (ToolRegisterOptions). */
  readonly id: string
  /** The root session's permission mode (e.g. `ask`), when its host offers modes. */
  readonly mode: string | undefined
  /** What a call may use of the session's person and editor, as its host gave them. */
  readonly channels: ToolSessionChannels
}

/** A session's ways to the person and the editor; each optional (a host may offer none). */
export interface ToolSessionChannels {
  /** Puts a question about a call to the person; see ToolPermissionAnswer. */
  ask?(request: ToolPermissionRequest): Promise<ToolPermissionAnswer>
  /** Tells the person something about the session (live only). */
  notice?(notice: ToolNotice): void
  /** The files as the person's editor holds them (unsaved buffers), as far as it offers them. */
  files?: ToolEditorFiles
  /**
   * Resolves once everything shown to the person so far was written out (never rejects): the
   * agent waits for it before a call's result goes back to the model, so a card never comes
   * after the model's next request.
   */
  written?(): Promise<void>
}

/** A session's files through its editor. */
export interface ToolEditorFiles {
  readonly canRead: boolean
  readonly canWrite: boolean
  /** The buffer's whole text, unsaved changes included; rejects with the editor's error. */
  readTextFile(path: string, signal: AbortSignal): Promise<string>
  /** Replaces the file's text through the editor. */
  writeTextFile(path: string, content: string, signal: AbortSignal): Promise<void>
  /**
   * The same files for a call of `session` (a child's): its requests go under the session id
   * its cards and questions use. Without it, every call's go under the session's own.
   */
  forSession?(session: ToolSession): ToolEditorFiles
}

export interface ToolSessionHeader {
  id: string
  /** The session workspace: relative tool paths resolve against it. */
  cwd: string
  /** The directories the session may work in without asking: `cwd` and any added ones. */
  roots?: readonly string[]
  /** The session's permission mode (e.g. `ask`), when its host offers modes. */
  mode?: string
  /** A child session's parent session id: it is stored under it and never listed on its own. */
  parent?: string
}

/** The agent a session belongs to. Opaque beyond its session and lifetime. */
export interface ToolAgent {
  session: ToolSession
  /**
   * Fires when the agent is released (its session closed, its connection gone, the host
   * disposed): what a call leaves running past its turn (a background job) ends with it.
   */
  readonly lifetime?: AbortSignal
}

/** What a call's host is told before the result: a person is asked about it, or it runs. */
export type ToolCallProgress =
  | { type: 'asked'; preview: ToolPresentationContent[] }
  | { type: 'started' }
  /** A piece of the running call's live output (a command's), as the tool batches it. */
  | { type: 'output'; text: string }
  /** Where the running call is (a server's progress): a UI shows it on the card, replaced each time. */
  | { type: 'status'; text: string }
  /** The running call's card content so far (a delegate's calls), replaced each time. */
  | { type: 'content'; text: string }

/** One call of a tool, as the host asks for it. */
export interface ToolExecution {
  callId: string
  name: string
  /** The arguments as the model sent them (parsed JSON); validated by the registry. */
  arguments: unknown
  /** The session the call runs for. */
  session: ToolSession
  /**
   * The agent whose session it is, when an agent host runs the call: its lifetime, and the
   * agent itself for a tool that starts a child session from it.
   */
  agent?: ToolAgent
  signal?: AbortSignal
  /**
   * Told when a permission layer puts the call to a person (with the preview) and when the
   * call starts running, past every `tools/execute` listener; a UI opens the call's card then.
   */
  report?(progress: ToolCallProgress): void
  /**
   * The option the person chose, for a call asked with its own options
   * (ToolCallAccess.choices); set by the permission layer before the call runs.
   */
  choice?: string
}

/** A failure's name and code, and what a person reads of it when it says so apart. */
export interface ToolErrorInfo {
  name: string
  code: string
  forPerson?: string
}

/** What a caller of `ctx.tools.execute` gets back; `execute` never rejects. */
export interface ToolExecutionResult {
  callId: string
  content: ToolContent[]
  isError: boolean
  /**
   * Present when the thrown error carried a string `code`; `forPerson`, when it also carried a
   * sentence for the person (a UI shows that on the card; the model reads `content`).
   */
  error?: ToolErrorInfo
  /** Structured result for presentation; never sent to the model. */
  details?: unknown
  /** Images for the model, after the text (see ToolImage). */
  images?: ToolImage[]
}

/** Where `register` puts a tool. */
export interface ToolRegisterOptions {
  /**
   * The id of the one session the tool is for: only that session's schemas list it and only
   * its calls find it (a call's is `exec.session.scope.id`, its root session's). Default: every session.
   */
  session?: string
}

/** The finished call, as `presentResult` sees it. */
export interface ToolResultView<D = unknown> {
  content: ToolContent[]
  isError: boolean
  details?: D
}

/**
 * How a call asks a permission layer (and the agent's scheduling) to judge it: what it does to
 * the world, the places it reaches, what "always allow" remembers, a call the operating system
 * confines. Pure data, worked out by the tool from its own arguments; every field optional.
 */
export interface ToolCallAccess {
  /**
   * What the call does to the world, which policy reads (the permission gate, the agent's
   * side-by-side scheduling); a presentation's `kind` is only what a UI draws. Default (see
   * `callEffect`): `read` for a read or search card, `write` for an edit, delete or move card,
   * `network` for a fetch card, else `execute`.
   */
  effect?: ToolEffect
  /** The places judged inside or outside the roots; default: the presentation's locations. */
  scope?: readonly string[]
  /**
   * What "always allow" remembers for this call: it runs unasked once every key was allowed
   * always in the session, and an `allow_always` answer remembers them all. `label` completes
   * the option's name ("Always allow <label>"). Default: the tool's name.
   */
  always?: { keys: readonly string[]; label: string }
  /** Asked in every mode but full access, with no "always" option (the call leaves a confinement). */
  askAlways?: boolean
  /**
   * The question's own options in place of Allow / Reject (a plan's review: where to go on).
   * With them the call is asked whenever it is asked at all, runs whichever option the person
   * picks, and reads the pick from `exec.choice`; no answer still stops it.
   */
  choices?: readonly ToolPermissionOption[]
  /**
   * The operating system confines what the call may write: only inside the session's roots
   * (`workspace`), or nowhere but a private temp dir (`read-only`). A confined call that is
   * not a read runs unasked where its confinement suffices for the mode.
   */
  confined?: 'workspace' | 'read-only'
  /**
   * The call may run beside the calls around it in one response though its effect is not
   * `read`: it changes nothing in its own right (a task, whose delegate's calls are each judged
   * as they come). At most `limit` calls of one `group` run at once; the others wait their turn.
   * Without it, only `read` calls run side by side. Scheduling only: the gate never reads it.
   */
  concurrency?: { group: string; limit: number }
}

/**
 * What a call does to the world: nothing outside the agent (`none`: a plan update), reads,
 * writes, runs code, or reaches the network.
 */
export type ToolEffect = 'none' | 'read' | 'write' | 'execute' | 'network'

export type ToolInput = z.ZodObject

export interface ToolDefinition<I extends ToolInput = ToolInput, D = unknown> {
  name: string
  description: string
  input: I
  /**
   * The JSON Schema the model sees, when the tool's input is described elsewhere (a tool of
   * another process): it replaces the schema drawn from `input`, which still validates the
   * arguments (a `z.looseObject({})` passes them on as they came).
   */
  parameters?: Record<string, unknown>
  /** The tool's results carry images: a host offers it only to a model that takes them. */
  returnsImages?: boolean
  execute(args: z.infer<I>, exec: ToolExecution): Promise<ToolOutput<D>>
  /** Pure; never throws. */
  presentCall?(args: z.infer<I>, view?: ToolPresentationView): ToolCallPresentation | undefined
  /** Pure; never throws. */
  presentResult?(
    args: z.infer<I>,
    result: ToolResultView<D>,
    view?: ToolPresentationView,
  ): ToolResultPresentation | undefined
  /** How a permission layer judges the call (see ToolCallAccess); never throws. */
  access?(
    args: z.infer<I>,
    exec: ToolExecution,
  ): ToolCallAccess | undefined | Promise<ToolCallAccess | undefined>
  /**
   * What the call would do, worked out without doing it (a write's or an edit's diff), to show
   * a person asked to allow it. Rejects with the error the call itself would fail with (a stale
   * or unread file, text that does not match), so nobody is asked about a call that cannot land.
   */
  preview?(args: z.infer<I>, exec: ToolExecution): Promise<ToolPresentationContent[] | undefined>
}

/** What the model sees of a tool. */
export interface ToolSchema {
  name: string
  description: string
  parameters: Record<string, unknown>
  /** As the definition's: offered only to a model that takes images. */
  returnsImages?: boolean
}

/** A choice offered to the person asked about a call. */
export interface ToolPermissionOption {
  optionId: string
  kind: 'allow_once' | 'allow_always' | 'reject_once'
  /** What the person reads, e.g. `Always allow write in this session`. */
  name: string
}

/** A call that needs a person's go-ahead, as its session's `ask` channel carries it. */
export interface ToolPermissionRequest {
  exec: ToolExecution
  /** The call's card: title, kind and its locations made absolute. */
  presentation: ToolCallPresentation
  /** What the call would do (a diff), when its tool can preview it; else empty. */
  preview: ToolPresentationContent[]
  /** In the order to offer them. */
  options: ToolPermissionOption[]
}

/**
 * The person's answer: one of the offered options; no answer (the turn was cancelled); or
 * `failed`: the UI could not put the question to the person (`reason` says why, in words for
 * the model), which refuses this call and lets the turn go on.
 */
export type ToolPermissionAnswer =
  | { outcome: 'selected'; optionId: string }
  | { outcome: 'cancelled' }
  | { outcome: 'failed'; reason: string }

/** What a person should know about their session (why commands are asked), as its `notice` channel carries it. */
export interface ToolNotice {
  /** One line that stands alone. */
  title: string
  /** The detail: why, and what to do. */
  description?: string
}
