// The abstract ctx.llm service: one method, `stream`, that a model provider implements.
// Kept apart from index.ts so providers inside this package can extend it without an
// import cycle through the package face.
import { Service } from 'cordis'
import type { Context } from 'cordis'
import type { LlmRequest, LlmStreamEvent } from './types'

export abstract class Llm extends Service {
  constructor(ctx: Context) {
    super(ctx, 'llm')
  }

  /** Streams one model response. Ends with a `finish` event; rejects on failure or abort. */
  abstract stream(request: LlmRequest): AsyncIterable<LlmStreamEvent>
}
