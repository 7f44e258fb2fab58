// How the demo shows a session to a person: each tool card as it arrives and as it updates
// (title, kind, status, locations as path:line relative to the workspace, diffs, short text
// output), the agent's text and thoughts as paragraphs. Pure: updates in, lines out; the
// caller prints them. It keeps the cards it has seen so an update shows the merged card.
import { relative, isAbsolute, sep } from 'node:path'
import type * as acp from '@agentclientprotocol/sdk'
import { renderDiff } from './diff-render'

export interface DemoStyle {
  ok(text: string): string
  bad(text: string): string
  dim(text: string): string
  added(text: string): string
  removed(text: string): string
}

export const PLAIN_STYLE: DemoStyle = {
  ok: (text) => text,
  bad: (text) => text,
  dim: (text) => text,
  added: (text) => text,
  removed: (text) => text,
}

const ansi =
  (code: number) =>
  (text: string): string =>
    `\u001b[${code}m${text}\u001b[0m`

export const COLOR_STYLE: DemoStyle = {
  ok: ansi(32),
  bad: ansi(31),
  dim: ansi(2),
  added: ansi(32),
  removed: ansi(31),
}

type Card = Omit<acp.ToolCallUpdate, 'toolCallId'>

/** Lines of text output a card shows before it says how many more there are. */
const MAX_TEXT_LINES = 6

export class DemoPrinter {
  private readonly cards = new Map<string, Card>()
  private readonly pending = { kind: '' as '' | 'text' | 'thought', text: '' }

  constructor(
    private readonly workspace: string,
    private readonly style: DemoStyle = PLAIN_STYLE,
  ) {}

  /** The lines to print for one `session/update`; streamed text is held until it ends. */
  update(update: acp.SessionUpdate): string[] {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        return this.chunk('text', update.content)
      case 'agent_thought_chunk':
        return this.chunk('thought', update.content)
      case 'tool_call': {
        const { sessionUpdate: _kind, toolCallId, ...card } = update
        this.cards.set(toolCallId, card)
        return [...this.flush(), ...this.card(card, card)]
      }
      case 'current_mode_update':
        return [...this.flush(), '', this.style.dim(`mode: ${update.currentModeId}`)]
      case 'tool_call_update': {
        const { sessionUpdate: _kind, toolCallId, ...patch } = update
        const merged = mergeCard(this.cards.get(toolCallId) ?? {}, patch)
        this.cards.set(toolCallId, merged)
        return [...this.flush(), ...this.card(merged, patch)]
      }
      default:
        return this.flush()
    }
  }

  /** A permission request as the person sees it: the question, the choices, the answer. */
  permission(request: acp.RequestPermissionRequest, answer: string): string[] {
    const title = request.toolCall.title ?? this.cards.get(request.toolCall.toolCallId)?.title
    const choices = request.options.map((option) => option.name).join(' / ')
    return ['', `? Allow "${title ?? 'this tool call'}"?  [${choices}]`, `  → ${answer}`]
  }

  /** Ends any streamed paragraph. */
  flush(): string[] {
    const { kind, text } = this.pending
    this.pending.kind = ''
    this.pending.text = ''
    if (kind === '' || text.trim() === '') return []
    const label = kind === 'text' ? 'agent' : 'thinking'
    const body = text.trim().split('\n')
    const render = kind === 'thought' ? this.style.dim : (line: string): string => line
    return ['', ...body.map((line, index) => render(`${index === 0 ? `${label}: ` : '  '}${line}`))]
  }

  private chunk(kind: 'text' | 'thought', content: acp.ContentBlock): string[] {
    const lines = this.pending.kind !== kind ? this.flush() : []
    this.pending.kind = kind
    if (content.type === 'text') this.pending.text += content.text
    return lines
  }

  // The card's header from the merged state; the body shows what this update brought.
  private card(card: Card, patch: Card): string[] {
    const status = card.status ?? 'pending'
    const mark =
      status === 'completed' ? this.style.ok('✓') : status === 'failed' ? this.style.bad('✗') : '•'
    const code = errorCode(patch.rawOutput)
    const lines = [
      '',
      `${mark} ${card.title ?? '(untitled)'}  [${card.kind ?? 'other'}, ${status}${code ? `: ${code}` : ''}]`,
    ]
    for (const location of patch.locations ?? []) {
      const line = location.line == null ? '' : `:${location.line}`
      lines.push(`    at ${this.show(location.path)}${line}`)
    }
    for (const content of patch.content ?? []) lines.push(...this.content(content))
    return lines
  }

  private content(content: acp.ToolCallContent): string[] {
    if (content.type === 'diff') {
      const title = content.oldText == null ? 'new file' : 'diff'
      const body = renderDiff(content.oldText, content.newText).map((line) =>
        line.startsWith('+')
          ? this.style.added(line)
          : line.startsWith('-')
            ? this.style.removed(line)
            : line,
      )
      return [`    ${title} ${this.show(content.path)}:`, ...body.map((line) => `      ${line}`)]
    }
    if (content.type === 'content' && content.content.type === 'text') {
      const text = content.content.text.trimEnd().split('\n')
      const shown = text.slice(0, MAX_TEXT_LINES).map((line) => `    | ${line}`)
      const more = text.length - MAX_TEXT_LINES
      return more > 0 ? [...shown, this.style.dim(`    | … ${more} more lines`)] : shown
    }
    return [`    (${content.type} content)`]
  }

  private show(path: string): string {
    if (!isAbsolute(path)) return path
    const inside = relative(this.workspace, path)
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return path
    return inside.split(sep).join('/')
  }
}

function mergeCard(card: Card, patch: Card): Card {
  const merged: Card = { ...card }
  for (const [key, value] of Object.entries(patch) as [keyof Card, unknown][]) {
    if (value !== undefined && value !== null) Object.assign(merged, { [key]: value })
  }
  return merged
}

/** The failure code the bridge puts in `rawOutput` (`{ error: { code } }`), if any. */
function errorCode(rawOutput: unknown): string | undefined {
  if (typeof rawOutput !== 'object' || rawOutput === null) return undefined
  const error = (rawOutput as { error?: unknown }).error
  if (typeof error !== 'object' || error === null) return undefined
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? code : undefined
}
