// ctx.tools: the registry of tools a model may call. It validates arguments, runs the
// `tools/execute` waterfall around each call, and turns every failure into an error result
// (`execute` never rejects). It offers presentation (`presentCall`/`presentResult`) safely.
// A tool is for every session, or registered for one session only (./entries): a call finds
// the tools of its own session. It is not a tool loop (that is the agent) and knows no UI protocol.
import { Service } from 'cordis'
import type { Context } from 'cordis'
import { checkToolArguments, formatArgumentsProblems } from './arguments'
import { checkDefinition, modelSchema } from './definition'
import { ToolEntries } from './entries'
import type { ToolEntry } from './entries'
import { ToolError } from './errors'
import { aborted, isExecutionResult, run, safely } from './execution'
import { errorResult, toolErrorResult } from './results'
import { toolSessionIdOf } from './session'
import { eventBusOf, untraced, type EventBus } from './untraced'
import type {
  ToolAgent,
  ToolCallAccess,
  ToolCallPresentation,
  ToolDefinition,
  ToolExecution,
  ToolExecutionResult,
  ToolInput,
  ToolPresentationContent,
  ToolPresentationView,
  ToolRegisterOptions,
  ToolResultPresentation,
  ToolResultView,
  ToolSchema,
} from './types'

declare module 'cordis' {
  interface Context {
    tools: ToolRegistry
  }

  interface Events {
    /** waterfall: wraps one call of a known tool with valid arguments; answer without `next` to veto. */
    'tools/execute'(
      exec: ToolExecution,
      next: () => Promise<ToolExecutionResult>,
    ): Promise<ToolExecutionResult>
    /**
     * A session opened (its host emits this after answering its opening, off that path): a
     * listener readies what the session's first call would otherwise do for the first time (a
     * tool's own checks, the session's roots) with nothing a person sees: no card, no
     * question, no output. A listener never throws and awaits nothing the host waits on.
     */
    'tools/warm-up'(agent: ToolAgent): void
  }
}

// The methods a call takes (execute and the presenters) read their state from the registry
// itself (`untraced(this)`), not through the caller's proxy: `this` there is Cordis's tracing
// proxy, whose every property read builds a context. `register` keeps `this.ctx`: the caller's.
export default class ToolRegistry extends Service {
  private readonly entries = new ToolEntries()
  private readonly events: EventBus

  /** Takes no options; `{}` is accepted so hosts can load every service alike. */
  constructor(ctx: Context, _config?: Record<string, never>) {
    super(ctx, 'tools')
    this.events = eventBusOf(ctx)
  }

  /**
   * Adds a tool, for every session or (`options.session`) for one, until the returned function
   * is called or the caller's plugin is disposed. A name is unique within what a session sees.
   */
  register<I extends ToolInput, D>(
    def: ToolDefinition<I, D>,
    options?: ToolRegisterOptions,
  ): () => void {
    checkDefinition(def)
    const entry: ToolEntry = { def: def as ToolDefinition }
    const session = options?.session
    if (this.entries.taken(def.name, session)) {
      throw new ToolError('TOOL_DUPLICATE', `A tool named "${def.name}" is already registered.`)
    }
    const dispose = this.ctx.effect(() => this.entries.add(entry, session), `tool ${def.name}`)
    return () => void dispose()
  }

  /** The tool `name` as session `session` sees it (without a session: the shared tools only). */
  get(name: string, session?: string): ToolDefinition | undefined {
    return this.entries.find(name, session)?.def
  }

  /** Registered names a session sees, in registration order (shared tools first). */
  names(session?: string): string[] {
    return this.entries.list(session).map((entry) => entry.def.name)
  }

  /**
   * What the model sees: name, description, and the input's JSON Schema (see schema.ts). Throws
   * TOOL_INVALID_DEFINITION, naming the tool, for an input JSON Schema cannot express.
   */
  schemas(session?: string): ToolSchema[] {
    return this.entries.list(session).map((entry) => (entry.schema ??= modelSchema(entry.def)))
  }

  /**
   * Says that session `session`'s own tools are still arriving (being connected) until
   * `until` settles; the returned function ends the wait early.
   */
  hold(session: string, until: Promise<unknown>): () => void {
    return this.entries.hold(session, until)
  }

  /**
   * Settles once the session's own tools have arrived (see `hold`); `undefined` when none are
   * awaited. A host awaits it before it lists the tools for a model request.
   */
  settled(session: string): Promise<void> | undefined {
    return this.entries.settled(session)
  }

  /** Runs one call. Never rejects: every failure is an error result. */
  async execute(exec: ToolExecution): Promise<ToolExecutionResult> {
    const self = untraced(this)
    try {
      const entry = self.entries.find(exec.name, sessionOf(exec))
      if (entry === undefined) return self.unknown(exec)
      if (exec.signal?.aborted) return aborted(exec, 'before it started')
      const check = checkToolArguments(entry.def.input, exec.arguments)
      if (!check.ok) {
        const text = formatArgumentsProblems(entry.def.name, entry.def.input, check.problems)
        return toolErrorResult(exec.callId, 'TOOL_INVALID_ARGUMENTS', text)
      }
      const inner = () => run(entry.def, check.args, exec)
      const result: unknown = await self.events.waterfall('tools/execute', exec, inner)
      if (isExecutionResult(result)) return result
      return toolErrorResult(
        exec.callId,
        'TOOL_INVALID_OUTPUT',
        `A tools/execute listener returned an invalid result for "${entry.def.name}".`,
      )
    } catch (thrown) {
      return errorResult(exec.callId, thrown)
    }
  }

  /** The tool's call card; `undefined` for an unknown tool, bad args, no or a throwing presenter. */
  presentCall(
    name: string,
    args: unknown,
    view?: ToolPresentationView,
  ): ToolCallPresentation | undefined {
    const def = untraced(this).entries.find(name, view?.session)?.def
    if (def?.presentCall === undefined) return undefined
    return safely(def, args, (parsed) => def.presentCall?.(parsed, view))
  }

  /**
   * What the call would do, from its tool's `preview`, without doing it; `undefined` for an
   * unknown tool, bad arguments or a tool without a preview. Rejects with the tool's error
   * when the call could not land (see ToolDefinition.preview).
   */
  async preview(exec: ToolExecution): Promise<ToolPresentationContent[] | undefined> {
    const def = untraced(this).entries.find(exec.name, sessionOf(exec))?.def
    if (def?.preview === undefined) return undefined
    const check = checkToolArguments(def.input, exec.arguments)
    return check.ok ? def.preview(check.args, exec) : undefined
  }

  /**
   * How the call asks to be judged, from its tool's `access`; `undefined` for an unknown tool,
   * bad arguments, a tool without the hook, or a hook that throws (the kind and locations rule).
   */
  async access(exec: ToolExecution): Promise<ToolCallAccess | undefined> {
    const def = untraced(this).entries.find(exec.name, sessionOf(exec))?.def
    if (def?.access === undefined) return undefined
    const check = checkToolArguments(def.input, exec.arguments)
    if (!check.ok) return undefined
    try {
      return await def.access(check.args, exec)
    } catch {
      // The hook broke its contract: judge the call by its presentation, as for a tool without one.
      return undefined
    }
  }

  /** The tool's result card, by the same rules as `presentCall`. */
  presentResult(
    name: string,
    args: unknown,
    result: ToolResultView,
    view?: ToolPresentationView,
  ): ToolResultPresentation | undefined {
    const def = untraced(this).entries.find(name, view?.session)?.def
    if (def?.presentResult === undefined) return undefined
    return safely(def, args, (parsed) => def.presentResult?.(parsed, result, view))
  }

  private unknown(exec: ToolExecution): ToolExecutionResult {
    const names = this.names(sessionOf(exec))
    const available = names.length > 0 ? names.join(', ') : '(none)'
    const text = `Unknown tool "${String(exec.name)}". Available tools: ${available}.`
    return toolErrorResult(exec.callId, 'TOOL_UNKNOWN', text)
  }
}

/** A child session's call finds its root session's tools (its parent's MCP servers). */
const sessionOf = toolSessionIdOf

export { clipLongString, clipLongStrings, LONG_STRING_CHARS } from './clip'
export { defineTool } from './definition'
export { callEffect, defaultEffect } from './effect'
export { configOf } from './config'
export { tellPerson, toolSessionIdOf } from './session'
export { fencedBlock } from './fence'
export { plainTerminalText, terminalText } from './terminal-text'
export { ToolError, TOOL_ERROR_CODES, isToolError } from './errors'
export { codedError, guardOf } from './coded-error'
export type { CodedError, CodedErrorClass, CodedErrorGuard, CodedErrorOptions } from './coded-error'
export { eventBusOf, untraced } from './untraced'
export type { EventBus } from './untraced'
export type { ToolErrorCode } from './errors'
export * from './types'
