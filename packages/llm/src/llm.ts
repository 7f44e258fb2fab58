// The abstract ctx.llm service: `stream`, which a model provider implements, and what a host
// may ask of the models behind it (their ids, each one's context window and prices). A
// provider that knows nothing of its models keeps the defaults: one model, the stated window.
// Kept apart from index.ts so providers inside this package can extend it without an
// import cycle through the package face.
import { Service } from 'cordis'
import type { Context } from 'cordis'
import type {
  LlmModelInfo,
  LlmModelMove,
  LlmRequest,
  LlmStreamEvent,
  LlmThoughtLevels,
} from './types'

/** The window assumed for a model nobody states one for: 32,768 tokens. */
export const DEFAULT_CONTEXT_WINDOW = 32_768

export abstract class Llm extends Service {
  constructor(ctx: Context) {
    super(ctx, 'llm')
  }

  /** Streams one model response. Ends with a `finish` event; rejects on failure or abort. */
  abstract stream(request: LlmRequest): AsyncIterable<LlmStreamEvent>

  /** The model a request without `model` gets. */
  get defaultModel(): string {
    return 'default'
  }

  /** The models a request may name, the default among them. Never rejects. */
  async models(): Promise<string[]> {
    return [this.defaultModel]
  }

  /** The window and prices of `model` (the default model when absent). */
  modelInfo(model?: string): LlmModelInfo {
    return { id: model ?? this.defaultModel, contextWindow: DEFAULT_CONTEXT_WINDOW }
  }

  /** The levels `model` can think at; undefined when it has one way of answering. */
  thoughtLevels(_model?: string): LlmThoughtLevels | undefined {
    return undefined
  }

  /**
   * When `model` (the default model when absent) is a retired name: its successor, which
   * requests are sent as, and a notice for the person. Undefined for a current name.
   */
  moved(_model?: string): LlmModelMove | undefined {
    return undefined
  }
}
