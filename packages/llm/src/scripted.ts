// The scripted model: an `Llm` that plays a validated script, one turn per `stream()` request,
// so the demo and the tests run with no key and no network. It streams reasoning, then text,
// in small pieces, then the turn's tool calls, then `finish`. It does not look at the request's
// messages: the script alone decides what the model says.
import type { Context } from 'cordis'
import { z } from 'zod'
import { abortableDelay, throwIfAborted } from './abort'
import { Llm } from './llm'
import { parseLlmScript } from './script'
import type { LlmModelInfo, LlmRequest, LlmScript, LlmScriptTurn, LlmStreamEvent } from './types'
import { configOf } from '@deepseek-ai/dsh-tools/config'

/** The script is validated (and normalised) by `parseLlmScript`; its messages are the issues. */
const ScriptSchema = z.custom<LlmScript>().transform((value, ctx): LlmScript => {
  try {
    return parseLlmScript(value)
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message })
    return z.NEVER
  }
})

/** The scripted model's config; there is no default script, so a config is required. */
export const Config = z.object({
  script: ScriptSchema,
  /** Characters (code points) per text or reasoning piece. */
  chunkSize: z.number().int().positive().default(8),
  /** Milliseconds to wait between events. */
  delayMs: z.number().int().nonnegative().default(0),
  /**
   * The window it reports (modelInfo). Large by default: a host that compacts would send a
   * summary request, and the script would answer it with a turn meant for the conversation.
   */
  contextWindow: z.number().int().min(1024).default(1_048_576),
  /** It reports taking images (modelInfo's `imageInput`): hosts then send it some. */
  imageInput: z.boolean().default(false),
})

/** The config as a host passes it to `ctx.plugin(ScriptedLlm, config)`. */
export type ScriptedLlmConfig = z.input<typeof Config>

function* splitPieces(text: string, size: number): Generator<string> {
  // Walked lazily: a script's megabytes of text cost nothing before their first piece plays.
  let start = 0
  while (start < text.length) {
    let end = start
    for (let points = 0; points < size && end < text.length; points++) {
      const pair = isHighSurrogate(text.charCodeAt(end)) && isLowSurrogate(text.charCodeAt(end + 1))
      end += pair ? 2 : 1
    }
    yield text.slice(start, end)
    start = end
  }
}

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff

export class ScriptedLlm extends Llm {
  static Config = Config

  private readonly script: LlmScript
  private readonly chunkSize: number
  private readonly delayMs: number
  private readonly contextWindow: number
  private readonly imageInput: boolean
  private readonly scriptIds: Set<string>
  /** Turns handed out so far. */
  private playedTurns = 0
  /** The counter behind generated call ids. */
  private generatedIds = 0

  constructor(ctx: Context, config: ScriptedLlmConfig) {
    super(ctx)
    // Cordis validated `config` against Config when the plugin loaded: this is its output.
    const settings = configOf(Config, config)
    this.script = settings.script
    this.chunkSize = settings.chunkSize
    this.delayMs = settings.delayMs
    this.contextWindow = settings.contextWindow
    this.imageInput = settings.imageInput
    this.scriptIds = new Set(
      settings.script.turns.flatMap((turn) =>
        (turn.toolCalls ?? []).flatMap((call) => call.id ?? []),
      ),
    )
  }

  /** Turns handed out so far (a request that was aborted mid-turn still counts). */
  get played(): number {
    return this.playedTurns
  }

  /** Turns not yet played. */
  get remaining(): number {
    return Math.max(0, this.script.turns.length - this.playedTurns)
  }

  override get defaultModel(): string {
    return 'scripted'
  }

  override modelInfo(model?: string): LlmModelInfo {
    const id = model ?? this.defaultModel
    return { id, contextWindow: this.contextWindow, ...(this.imageInput && { imageInput: true }) }
  }

  stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    return this.play(request.signal)
  }

  private async *play(signal?: AbortSignal): AsyncGenerator<LlmStreamEvent> {
    throwIfAborted(signal)
    const turn = this.script.turns[this.playedTurns]
    if (turn === undefined) {
      const count = this.script.turns.length
      yield { type: 'text-delta', text: this.exhaustedText(count) }
      yield { type: 'finish', reason: 'stop' }
      return
    }
    this.playedTurns += 1
    let first = true
    for (const event of this.turnEvents(turn)) {
      if (!first && this.delayMs > 0) await abortableDelay(this.delayMs, signal)
      throwIfAborted(signal)
      first = false
      yield event
    }
  }

  private exhaustedText(count: number): string {
    return `The scripted model has no more turns (the script had ${count}).`
  }

  private *turnEvents(turn: LlmScriptTurn): Generator<LlmStreamEvent> {
    for (const text of splitPieces(turn.reasoning ?? '', this.chunkSize)) {
      yield { type: 'reasoning-delta', text }
    }
    for (const text of splitPieces(turn.text ?? '', this.chunkSize)) {
      yield { type: 'text-delta', text }
    }
    const calls = turn.toolCalls ?? []
    for (const call of calls) {
      const id = call.id ?? this.generateId()
      yield { type: 'tool-call', id, name: call.name, arguments: JSON.stringify(call.arguments) }
    }
    yield { type: 'finish', reason: calls.length > 0 ? 'tool-calls' : 'stop' }
  }

  /** A call id not used by the script itself nor generated before by this model. */
  private generateId(): string {
    let id: string
    do {
      this.generatedIds += 1
      id = `call_${this.generatedIds}`
    } while (this.scriptIds.has(id))
    return id
  }
}
