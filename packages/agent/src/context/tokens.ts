// How full a session's context is, between what the server reports and what it has not yet
// seen. A server counts a request's tokens only once it answers; until then the meter
// estimates (UTF-8 bytes / 3.5: a little over what code and English cost, and over what CJK
// text costs per character) and scales the estimate by how the last report compared with it.
// Exact where the server spoke, estimated only for what was added since.
// Pure: no I/O, no events.
import type { LlmMessage, LlmToolSchema, LlmUsage } from '@deepseek-ai/dsh-llm'

/** Bytes per token of the raw estimate. */
const BYTES_PER_TOKEN = 3.5
/**
 * What an image costs, in tokens: a flat figure, about what a 1024×1024 image costs the
 * models that take images (they scale images down to a few tiles); the server's report corrects it.
 */
const IMAGE_TOKENS = 1_500
/** What a message costs beyond its text (role, separators), in tokens. */
const MESSAGE_OVERHEAD = 4

const cache = new WeakMap<LlmMessage, number>()

export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN)
}

/** The raw estimate of one message (kept per message object: messages are not mutated). */
export function estimateMessage(message: LlmMessage): number {
  const known = cache.get(message)
  if (known !== undefined) return known
  let tokens = MESSAGE_OVERHEAD + estimateTokens(message.content)
  if (message.role !== 'assistant') tokens += (message.images?.length ?? 0) * IMAGE_TOKENS
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) {
      tokens += MESSAGE_OVERHEAD + estimateTokens(call.name) + estimateTokens(call.arguments)
    }
  }
  cache.set(message, tokens)
  return tokens
}

export interface MeteredRequest {
  system: string
  tools: readonly LlmToolSchema[]
  messages: readonly LlmMessage[]
}

/** The raw estimate of a whole request: system prompt, tool schemas, messages. */
export function estimateRequest(request: MeteredRequest): number {
  let tokens = estimateTokens(request.system) + estimateTokens(JSON.stringify(request.tools))
  for (const message of request.messages) tokens += estimateMessage(message)
  return tokens
}

export class ContextMeter {
  /** Reported tokens over estimated ones, from the last report (1 before any). */
  private ratio = 1
  /** The last report: its tokens (prompt and answer), the raw estimate of the same, and how many messages it covered. */
  private base: { tokens: number; estimate: number; messages: number } | undefined

  /** The scale of the raw estimate the last report measured. */
  get calibration(): number {
    return this.ratio
  }

  /**
   * The tokens of `request` as the server would count them: the last report, plus the scaled
   * estimate of what was appended since; the scaled estimate of the whole when the
   * conversation was rewritten since (a compaction) or nothing was reported yet.
   */
  measure(request: MeteredRequest): number {
    const raw = estimateRequest(request)
    const { base } = this
    if (base === undefined || request.messages.length < base.messages) {
      return Math.ceil(raw * this.ratio)
    }
    return base.tokens + Math.max(0, Math.ceil((raw - base.estimate) * this.ratio))
  }

  /**
   * The server answered `request` (its `answer` is the message the response became) with
   * `usage`: the report becomes the base, and the ratio is learnt from its prompt.
   */
  report(request: MeteredRequest, answer: LlmMessage | undefined, usage: LlmUsage): void {
    const input = usage.inputTokens
    if (input === undefined || input <= 0) return
    const prompt = estimateRequest(request)
    // Clamped, so one odd report cannot make the estimate wild.
    this.ratio = Math.min(3, Math.max(0.3, input / prompt))
    const output =
      usage.outputTokens ?? (answer ? Math.ceil(estimateMessage(answer) * this.ratio) : 0)
    const answered = answer === undefined ? 0 : estimateMessage(answer)
    this.base = {
      tokens: input + output,
      estimate: prompt + answered,
      messages: request.messages.length + (answer === undefined ? 0 : 1),
    }
  }

  /** The conversation was rewritten: what was reported no longer describes it. */
  reset(): void {
    this.base = undefined
  }
}
