// ctx.systemPrompt: named, ordered prose sections (each added by a plugin and removed with it)
// and, at assembly, the schemas of the registered tools — what one model request needs. A
// section, like a tool, is for every session or for one (its own tools' section).
// Not a template engine and not a conversation: it knows nothing of messages or turns.
// `ctx.tools` is optional. Cordis 4 rc.10 treats every `inject` key as required (a plugin
// waits until all are present), so the registry is looked up at assembly with `ctx.get`.
import { Service } from 'cordis'
import type { Context } from 'cordis'
import type ToolRegistry from '@deepseek-ai/dsh-tools'
import { SystemPromptError } from './errors'
import type { AssembledPrompt, PromptSection, PromptSectionInput } from './types'

declare module 'cordis' {
  interface Context {
    systemPrompt: SystemPrompt
  }
}

export const DEFAULT_SECTION_ORDER = 100

interface Entry extends PromptSection {
  sequence: number
}

export default class SystemPrompt extends Service {
  private readonly entries = new Map<string, Entry>()
  /** Sections added for one session each, by session id. */
  private readonly scoped = new Map<string, Map<string, Entry>>()
  /** Added sections are numbered so that equal orders keep the order they were added in. */
  private nextSequence = 0
  /** The last text assembled, for the sections as they were (`changes`) and that `extra`. */
  private assembled:
    | { changes: number; extra: string | undefined; session: string | undefined; system: string }
    | undefined
  /** Counts additions and removals of sections. */
  private changes = 0

  /**
   * The registry `assemble` reads, as last looked up (Cordis's lookup costs more than the rest
   * of an assembly); looked up again once any service named `tools` is set or removed.
   */
  private registry: { found: ToolRegistry | undefined } | undefined

  /** Takes no options; `{}` is accepted so hosts can load every service alike. */
  constructor(ctx: Context, _config?: Record<string, never>) {
    super(ctx, 'systemPrompt')
    ctx.on('internal/service', (name) => {
      if (name === 'tools') this.registry = undefined
    })
  }

  /**
   * Adds a section, for every session or (`options.session`) for one, until the returned
   * function is called or the caller's plugin is disposed.
   */
  add(section: PromptSectionInput, options?: { session?: string }): () => void {
    const entry = checkSection(section, this.nextSequence++)
    const session = options?.session
    const table = session === undefined ? this.entries : (this.scoped.get(session) ?? new Map())
    if (table.has(entry.name) || (session !== undefined && this.entries.has(entry.name))) {
      throw new SystemPromptError(
        'PROMPT_DUPLICATE_SECTION',
        `A prompt section named "${entry.name}" is already added.`,
      )
    }
    const dispose = this.ctx.effect(() => {
      table.set(entry.name, entry)
      if (session !== undefined) this.scoped.set(session, table)
      this.changes++
      return () => {
        if (table.get(entry.name) !== entry) return
        table.delete(entry.name)
        if (session !== undefined && table.size === 0) this.scoped.delete(session)
        this.changes++
      }
    }, `prompt section ${entry.name}`)
    return () => void dispose()
  }

  /** The sections a session gets (without one: the shared ones), in assembly order. */
  sections(session?: string): PromptSection[] {
    const own = session === undefined ? undefined : this.scoped.get(session)
    const entries = [...this.entries.values(), ...(own?.values() ?? [])]
    return entries
      .sort((a, b) => a.order - b.order || a.sequence - b.sequence)
      .map(({ name, text, order }) => ({ name, text, order }))
  }

  /**
   * The system text (each section trimmed, empty ones skipped, joined by a blank line, `extra`
   * last) and the tool schemas of `ctx.tools`, or none when no registry is loaded; with
   * `session`, that session's own sections and tools too.
   */
  assemble(extra?: string, session?: string): AssembledPrompt {
    const tools = this.toolRegistry()?.schemas(session) ?? []
    return { system: this.systemText(extra, session), tools }
  }

  private toolRegistry(): ToolRegistry | undefined {
    if (this.registry === undefined) {
      const found = this.ctx.get('tools')
      this.registry = { found }
    }
    return this.registry.found
  }

  /** The system text, assembled again only when the sections, `extra` or the session changed. */
  private systemText(extra: string | undefined, session: string | undefined): string {
    const last = this.assembled
    if (last?.changes === this.changes && last.extra === extra && last.session === session) {
      return last.system
    }
    const parts = this.sections(session).map((section) => section.text.trim())
    if (extra !== undefined) parts.push(extra.trim())
    const system = parts.filter((part) => part !== '').join('\n\n')
    this.assembled = { changes: this.changes, extra, session, system }
    return system
  }
}

function checkSection(section: PromptSectionInput, sequence: number): Entry {
  const { name, text, order = DEFAULT_SECTION_ORDER } = section
  if (typeof name !== 'string' || name.trim() === '') {
    throw new SystemPromptError(
      'PROMPT_INVALID_SECTION',
      'A prompt section needs a non-empty name.',
    )
  }
  if (typeof text !== 'string') {
    throw new SystemPromptError('PROMPT_INVALID_SECTION', `Prompt section "${name}" needs a text.`)
  }
  if (typeof order !== 'number' || !Number.isFinite(order)) {
    throw new SystemPromptError(
      'PROMPT_INVALID_SECTION',
      `Prompt section "${name}" needs a finite number as order.`,
    )
  }
  return { name, text, order, sequence }
}

export { SYSTEM_PROMPT_ERROR_CODES, SystemPromptError, isSystemPromptError } from './errors'
export type { SystemPromptErrorCode } from './errors'
export type { AssembledPrompt, PromptSection, PromptSectionInput } from './types'
