// The ctx.llm seam: one method, `stream`, that a model provider implements.
import { Service } from 'cordis'
import type { Context } from 'cordis'
import type { LlmRequest, LlmStreamEvent } from './types'

declare module 'cordis' {
  interface Context {
    llm: Llm
  }
}

export abstract class Llm extends Service {
  constructor(ctx: Context) {
    super(ctx, 'llm')
  }

  /** Streams one model response. Ends with a `finish` event; rejects on failure or abort. */
  abstract stream(request: LlmRequest): AsyncIterable<LlmStreamEvent>
}

export * from './types'
