// A model with a context window, at the model edge of the compaction tests: it counts each
// request's tokens its own way (UTF-8 bytes / 3, more than the agent's estimate), refuses a
// request over its window with LLM_CONTEXT_TOO_LONG as a server would, reports usage, answers a
// summary request with a summary, and otherwise plays its responses in order (the last one
// again when they run out). A `read` tool of kind read returns a file's worth of lines.
import { Llm, LlmError } from '@deepseek-ai/dsh-llm'
import type { LlmModelInfo, LlmPrices, LlmRequest, LlmStreamEvent } from '@deepseek-ai/dsh-llm'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { Context } from 'cordis'
import { z } from 'zod'

export interface WindowedResponse {
  text?: string
  calls?: { id: string; name: string; arguments: Record<string, unknown> }[]
}

export interface WindowedConfig {
  window: number
  responses: WindowedResponse[]
  /** Extra tokens the server counts that the agent cannot see (its own template). */
  skew?: number
  /** Reports no usage (as some local servers), so the agent only has its estimate. */
  silent?: boolean
  /** The model's prices (default: USD 1 input, 0.1 cached, 2 output per million). */
  prices?: LlmPrices
}

export function serverTokens(request: LlmRequest): number {
  const text = JSON.stringify([request.system, request.tools, request.messages])
  return Math.ceil(Buffer.byteLength(text) / 3)
}

export class WindowedLlm extends Llm {
  readonly requests: LlmRequest[] = []
  readonly refused: LlmRequest[] = []
  private played = 0

  constructor(
    ctx: Context,
    private readonly config: WindowedConfig,
  ) {
    super(ctx)
  }

  override get defaultModel(): string {
    return 'windowed'
  }

  override modelInfo(model?: string): LlmModelInfo {
    return {
      id: model ?? 'windowed',
      contextWindow: this.config.window,
      prices: this.config.prices ?? {
        currency: 'USD',
        inputPerMillion: 1,
        cachedInputPerMillion: 0.1,
        outputPerMillion: 2,
      },
    }
  }

  stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    return this.answer({ ...request, messages: [...request.messages] })
  }

  private async *answer(request: LlmRequest): AsyncGenerator<LlmStreamEvent> {
    const tokens = serverTokens(request) + (this.config.skew ?? 0)
    if (tokens > this.config.window) {
      this.refused.push(request)
      throw new LlmError(
        'LLM_CONTEXT_TOO_LONG',
        `maximum context length is ${this.config.window} tokens, got ${tokens}`,
        {
          status: 400,
        },
      )
    }
    this.requests.push(request)
    const usage = this.config.silent
      ? undefined
      : { inputTokens: tokens, outputTokens: 10, cachedInputTokens: 0 }
    if (request.system.startsWith('You compact')) {
      yield {
        type: 'text-delta',
        text: `- summary of ${request.messages[0]!.content.length} characters`,
      }
      yield { type: 'finish', reason: 'stop', ...(usage && { usage }) }
      return
    }
    const { responses } = this.config
    const response = responses[Math.min(this.played, responses.length - 1)]!
    this.played += 1
    if (response.text) yield { type: 'text-delta', text: response.text }
    for (const call of response.calls ?? []) {
      yield {
        type: 'tool-call',
        id: call.id,
        name: call.name,
        arguments: JSON.stringify(call.arguments),
      }
    }
    yield {
      type: 'finish',
      reason: response.calls?.length ? 'tool-calls' : 'stop',
      ...(usage && { usage }),
    }
  }
}

/** A `read` tool (kind read) whose output is `lines` numbered lines of the named file. */
export function registerBigRead(ctx: Context, lines: number, started: string[] = []): void {
  ctx.tools.register(
    defineTool({
      name: 'read',
      description: 'Reads a file.',
      input: z.object({ file_path: z.string() }),
      async execute(args) {
        started.push(args.file_path)
        await new Promise((resolve) => setTimeout(resolve, 5))
        return Array.from(
          { length: lines },
          (_, i) => `${i + 1}\t${args.file_path} line ${i + 1} of some text`,
        ).join('\n')
      },
      presentCall: (args) => ({ title: `Read ${args.file_path}`, kind: 'read' }),
    }),
  )
}

export const readCall = (id: string, path: string) => ({
  id,
  name: 'read',
  arguments: { file_path: path },
})
