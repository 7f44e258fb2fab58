// SessionContext: one session's context window — how full it is (./tokens), what the session
// has cost, and the compaction that keeps every request inside the window: before a request
// that would pass the threshold, old tool outputs are elided in one batch (./elide), then, if
// still too full, the older conversation is summarised by one model request (./summarise),
// and as a last resort recent outputs are cut. Each compaction is logged (context/compacting,
// context/compacted) so a loaded session rebuilds the same conversation (../turn/history).
import { randomUUID } from 'node:crypto'
import { costOf, ratesAt } from '@deepseek-ai/dsh-llm'
import type { Llm, LlmMessage, LlmModelInfo, LlmToolSchema, LlmUsage } from '@deepseek-ai/dsh-llm'
import { cutOutput, elideBefore, isStub, recentStart } from './elide'
import type { KeepToolOutput } from './elide'
import { errorMessage } from '../turn/model-stream'
import { openingOf, summarise } from './summarise'
import { ContextMeter, estimateMessage } from './tokens'
import type { MeteredRequest } from './tokens'
import type { CompactionRecord, CompactionTrigger, SessionEvent } from '../types'

export interface ContextPolicy {
  /** The share of the window a request may fill before a compaction (default 0.8). */
  threshold: number
  /** Model steps (a response and its results) kept whole by a compaction (default 3). */
  keepRecentSteps: number
  /** Tool outputs that must survive every compaction whole. */
  keep?: KeepToolOutput
}

/** What a session's context is made from. */
export interface SessionContextOptions {
  policy: ContextPolicy
  /** The current model's window and prices. */
  info: () => LlmModelInfo
  /** The person's first message of the session, for the summary's opening. */
  firstMessage: () => string | undefined
  /** A stored session's events: the cost spent so far is read from them. */
  earlier?: readonly SessionEvent[]
  /** The session's current plan as its model last set it, kept in a summary's opening. */
  currentPlan?: () => string | undefined
  /** What the session's context sources carry through a summary (./context-sources). */
  carried?: () => string | undefined
}

export interface CompactSpec {
  history: LlmMessage[]
  prompt: { system: string; tools: LlmToolSchema[] }
  llm: Llm
  model?: string
  signal: AbortSignal
  turnId: string
  append(event: SessionEvent): void
}

/** The share of the window the recent steps may take before fewer are kept whole. */
const RECENT_SHARE = 0.3
/** The share of the window a compaction aims under, before (auto) and after (hard) a refusal. */
const TARGET = { soft: 0.6, hard: 0.4 }
/** The share of the window a request may use at most, whatever happens (room for the answer). */
const CEILING = 0.9
const BYTES_PER_TOKEN = 3.5

export class SessionContext {
  readonly meter = new ContextMeter()
  private spent: { amount: number; currency: string } | undefined
  /** The context each charge of this one counts toward too (a child session's parent's). */
  private payer: SessionContext | undefined

  constructor(private readonly options: SessionContextOptions) {
    for (const event of options.earlier ?? [])
      if (event.type === 'context/usage' && event.cost) this.spent = { ...event.cost }
  }

  get size(): number {
    return this.options.info().contextWindow
  }

  /** The tokens a request may hold before it is compacted. */
  get limit(): number {
    return Math.floor(this.size * this.options.policy.threshold)
  }

  measure(history: readonly LlmMessage[], prompt: CompactSpec['prompt']): number {
    return this.meter.measure({ ...prompt, messages: history })
  }

  /**
   * Makes the next request fit: compacts when it would pass the threshold (or always, for a
   * `command`; harder, for a `refused` request). Resolves with the tokens it will hold, and
   * whether that is inside the window.
   */
  async prepare(
    spec: CompactSpec,
    trigger?: CompactionTrigger,
  ): Promise<{ used: number; fits: boolean }> {
    let used = this.measure(spec.history, spec.prompt)
    if (trigger === undefined && used > this.limit) trigger = 'auto'
    if (trigger !== undefined) used = await this.compact(spec, trigger)
    return { used, fits: used <= this.size * CEILING }
  }

  /** The most characters one of `calls` tool outputs may take now (see cutOutput). */
  outputBudget(
    history: readonly LlmMessage[],
    prompt: CompactSpec['prompt'],
    calls: number,
  ): number {
    const left = Math.max(0, this.limit - this.measure(history, prompt))
    return Math.floor(((left / Math.max(1, calls)) * BYTES_PER_TOKEN) / this.meter.calibration)
  }

  /**
   * After a model response: the meter learns from the usage, the request is charged at the
   * rates in force when it was `sent`, and the usage event is appended.
   */
  answered(
    request: MeteredRequest,
    answer: LlmMessage | undefined,
    usage: LlmUsage | undefined,
    turn: { id: string; sent: Date },
    append: (event: SessionEvent) => void,
  ): void {
    const turnId = turn.id
    if (usage !== undefined) {
      this.meter.report(request, answer, usage)
      this.charge(usage, turn.sent)
    }
    const messages = answer === undefined ? request.messages : [...request.messages, answer]
    const used = this.meter.measure({ ...request, messages })
    append({
      type: 'context/usage',
      turnId,
      used,
      size: this.size,
      ...(this.spent && { cost: { ...this.spent } }),
    })
  }

  /** Each charge of this session counts toward `payer`'s cost too (its next usage says so). */
  chargeAlsoTo(payer: SessionContext): void {
    this.payer = payer
  }

  private charge(usage: LlmUsage, sent: Date): void {
    const prices = this.options.info().prices
    if (prices === undefined) return
    const amount = costOf(ratesAt(prices, sent), {
      input: usage.inputTokens ?? 0,
      cached: usage.cachedInputTokens ?? 0,
      output: usage.outputTokens ?? 0,
    })
    this.add(amount, prices.currency)
  }

  private add(amount: number, currency: string): void {
    const before = this.spent?.currency === currency ? this.spent.amount : 0
    this.spent = { amount: before + amount, currency }
    this.payer?.add(amount, currency)
  }

  private async compact(spec: CompactSpec, trigger: CompactionTrigger): Promise<number> {
    const { history, prompt, turnId } = spec
    const hard = trigger === 'refused'
    const before = this.measure(history, prompt)
    // Elide everything before the recent steps; fewer steps stay whole when they alone are big.
    let end = recentStart(history, hard ? 1 : this.options.policy.keepRecentSteps)
    for (let steps = this.options.policy.keepRecentSteps - 1; steps >= 1 && !hard; steps -= 1) {
      if (recentTokens(history, end) <= this.size * RECENT_SHARE) break
      end = recentStart(history, steps)
    }
    const elision = elideBefore(history, end, this.options.policy.keep)
    let next = elision.history
    // What was reported no longer describes the conversation from here on.
    this.meter.reset()
    const target = this.size * (hard ? TARGET.hard : TARGET.soft)
    const older = next.slice(0, end)
    const summarisable = older.length > 1 || older.some((m) => m.role !== 'user')
    const wantSummary =
      summarisable && (trigger === 'command' || this.measure(next, prompt) > target)
    const goal = hard ? target : this.limit
    // Nothing to elide, summarise or cut: no compaction, and nothing for the log or the person.
    if (
      trigger === 'auto' &&
      elision.replaced.length === 0 &&
      !wantSummary &&
      this.cutRecent(next, prompt, goal).length === 0
    ) {
      return this.measure(history, prompt)
    }
    const compactionId = randomUUID()
    spec.append({ type: 'context/compacting', turnId, compactionId, trigger })
    const replaced = [...elision.replaced]
    const record: Omit<CompactionRecord, 'after'> = {
      compactionId,
      trigger,
      replaced,
      elided: replaced.length,
      before,
    }
    if (wantSummary) next = await this.summarised(spec, next, end, record)
    // Still too full: the largest recent outputs are cut until the request fits.
    replaced.push(...this.cutRecent(next, prompt, goal))
    for (const entry of replaced.slice(record.elided)) applyOne(next, entry)
    history.splice(0, history.length, ...next)
    const after = this.measure(history, prompt)
    spec.append({ type: 'context/compacted', turnId, ...record, after })
    return after
  }

  /**
   * The conversation with the messages before `end` summarised into one opening message, which
   * `record` keeps; on a failure, the conversation as it was and the record says why.
   */
  private async summarised(
    spec: CompactSpec,
    history: LlmMessage[],
    end: number,
    record: Omit<CompactionRecord, 'after'>,
  ): Promise<LlmMessage[]> {
    const older = history.slice(0, end)
    try {
      const sent = new Date()
      const { text, usage } = await summarise({
        llm: spec.llm,
        ...(spec.model !== undefined && { model: spec.model }),
        messages: older,
        maxTokens: Math.floor(this.size * 0.5),
        signal: spec.signal,
      })
      if (usage) this.charge(usage, sent)
      const { firstMessage, currentPlan, carried } = this.options
      const opening = openingOf(firstMessage(), text, latestUserText(older), currentPlan?.(), {
        carried: carried?.(),
      })
      record.summary = { text, opening, keep: history.length - end }
      return [{ role: 'user', content: opening }, ...history.slice(end)]
    } catch (error) {
      record.summaryError = errorMessage(error)
      return history
    }
  }

  private cutRecent(
    history: readonly LlmMessage[],
    prompt: CompactSpec['prompt'],
    goal: number,
  ): { callId: string; content: string }[] {
    let excess = this.measure(history, prompt) - goal
    if (excess <= 0) return []
    const outputs = history
      .filter(
        (m): m is Extract<LlmMessage, { role: 'tool' }> => m.role === 'tool' && !isStub(m.content),
      )
      .sort((a, b) => b.content.length - a.content.length)
    const cuts: { callId: string; content: string }[] = []
    for (const output of outputs) {
      if (excess <= 0) break
      const drop = Math.ceil(excess * BYTES_PER_TOKEN * this.meter.calibration) + 400
      const content = cutOutput(output.content, output.content.length - drop)
      if (content === output.content) continue
      cuts.push({ callId: output.toolCallId, content })
      excess -= Math.floor((output.content.length - content.length) / BYTES_PER_TOKEN)
    }
    return cuts
  }
}

function recentTokens(history: readonly LlmMessage[], from: number): number {
  let tokens = 0
  for (let index = from; index < history.length; index += 1)
    tokens += estimateMessage(history[index]!)
  return tokens
}

/** The person's last message of the summarised part (not the opening, nor a source's note). */
function latestUserText(older: readonly LlmMessage[]): string | undefined {
  for (let index = older.length - 1; index > 0; index -= 1) {
    const message = older[index]!
    if (message.role === 'user' && message.note === undefined) return message.content
  }
  return undefined
}

function applyOne(history: LlmMessage[], entry: { callId: string; content: string }): void {
  const index = history.findIndex((m) => m.role === 'tool' && m.toolCallId === entry.callId)
  const message = history[index]
  if (message?.role === 'tool') history[index] = { ...message, content: entry.content }
}
