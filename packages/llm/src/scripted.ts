// The scripted model: an `Llm` that plays a validated script, one turn per `stream()` request,
// so the demo and the tests run with no key and no network. It streams reasoning, then text,
// in small pieces, then the turn's tool calls, then `finish`. It does not look at the request's
// messages: the script alone decides what the model says.
import type { Context } from 'cordis'
import { z } from 'zod'
import { abortableDelay, throwIfAborted } from './abort'
import { Llm } from './llm'
import { parseLlmScript } from './script'
import type { LlmRequest, LlmScript, LlmScriptTurn, LlmStreamEvent } from './types'

export interface ScriptedLlmConfig {
  script: LlmScript
  /** Characters (code points) per text or reasoning piece; default 8. */
  chunkSize?: number
  /** Milliseconds to wait between events; default 0. */
  delayMs?: number
}

const DEFAULT_CHUNK_SIZE = 8

const ScriptSchema = z.unknown().transform((value, ctx): LlmScript => {
  try {
    return parseLlmScript(value)
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message })
    return z.NEVER
  }
})

function splitPieces(text: string, size: number): string[] {
  const points = Array.from(text)
  const pieces: string[] = []
  for (let index = 0; index < points.length; index += size) {
    pieces.push(points.slice(index, index + size).join(''))
  }
  return pieces
}

export class ScriptedLlm extends Llm {
  static Config = z.object({
    script: ScriptSchema,
    chunkSize: z.number().int().positive().default(DEFAULT_CHUNK_SIZE),
    delayMs: z.number().int().nonnegative().default(0),
  })

  private readonly script: LlmScript
  private readonly chunkSize: number
  private readonly delayMs: number
  private readonly scriptIds: Set<string>
  private readonly progress = { played: 0, generatedIds: 0 }

  constructor(ctx: Context, config: ScriptedLlmConfig) {
    super(ctx)
    this.script = config.script
    this.chunkSize = config.chunkSize ?? DEFAULT_CHUNK_SIZE
    this.delayMs = config.delayMs ?? 0
    this.scriptIds = new Set(
      config.script.turns.flatMap((turn) =>
        (turn.toolCalls ?? []).flatMap((call) => call.id ?? []),
      ),
    )
  }

  /** Turns handed out so far (a request that was aborted mid-turn still counts). */
  get played(): number {
    return this.progress.played
  }

  /** Turns not yet played. */
  get remaining(): number {
    return Math.max(0, this.script.turns.length - this.progress.played)
  }

  stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    return this.play(request.signal)
  }

  private async *play(signal?: AbortSignal): AsyncGenerator<LlmStreamEvent> {
    throwIfAborted(signal)
    const turn = this.script.turns[this.progress.played]
    if (turn === undefined) {
      const count = this.script.turns.length
      yield { type: 'text-delta', text: this.exhaustedText(count) }
      yield { type: 'finish', reason: 'stop' }
      return
    }
    this.progress.played += 1
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
      this.progress.generatedIds += 1
      id = `call_${this.progress.generatedIds}`
    } while (this.scriptIds.has(id))
    return id
  }
}
