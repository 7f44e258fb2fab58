// The scripted model as the background-task tests watch it: every request is recorded, and a
// delegate's first request can be held open (a model stream that has not answered yet) until
// the test releases it, or until its signal fires, which is recorded as that stream aborted.
// A delegate is told apart by its system prompt; its task by its prompt (`<description>.`).
// A held request takes no scripted turn; a released one takes the next, as any request does.
import type { Context } from 'cordis'
import type { Llm, LlmRequest, LlmStreamEvent } from '@deepseek-ai/dsh-llm'
import { untraced } from '@deepseek-ai/dsh-tools'

export interface WatchedModel {
  /** Every request, in order. */
  requests: LlmRequest[]
  /** The delegates (by description) whose held stream is open now. */
  streaming: Set<string>
  /** The delegates whose held stream's signal fired, in order. */
  aborted: string[]
  /** Holds the first request of the delegate of `description` until `release`. */
  hold(description: string): void
  release(description: string): void
  /** The requests of the parent (not a delegate's). */
  parentRequests(): LlmRequest[]
}

/** The description of the task whose delegate sent `request`; undefined for the parent. */
export function delegateOf(request: LlmRequest): string | undefined {
  if (!request.system.includes('You are a delegate')) return undefined
  const first = request.messages.find((m) => m.role === 'user' && m.note === undefined)
  return first?.content.replace(/\.$/, '')
}

export function watchModel(ctx: Context): WatchedModel {
  const llm = untraced(ctx.get('llm') as Llm)
  const play = llm.stream.bind(llm)
  const held = new Map<string, { opened: Promise<void>; open: () => void; taken: boolean }>()
  const model: WatchedModel = {
    requests: [],
    streaming: new Set(),
    aborted: [],
    hold(description) {
      let open = () => {}
      const opened = new Promise<void>((resolve) => (open = resolve))
      held.set(description, { opened, open, taken: false })
    },
    release(description) {
      held.get(description)?.open()
    },
    parentRequests: () => model.requests.filter((request) => delegateOf(request) === undefined),
  }
  llm.stream = (request) => {
    model.requests.push(request)
    const description = delegateOf(request)
    const gate = description === undefined ? undefined : held.get(description)
    if (description === undefined || gate === undefined || gate.taken) return play(request)
    gate.taken = true
    return heldStream(model, description, gate.opened, request, play)
  }
  return model
}

async function* heldStream(
  model: WatchedModel,
  description: string,
  opened: Promise<void>,
  request: LlmRequest,
  play: (request: LlmRequest) => AsyncIterable<LlmStreamEvent>,
): AsyncGenerator<LlmStreamEvent> {
  const signal = request.signal
  let onAbort = () => {}
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => {
      model.aborted.push(description)
      resolve()
    }
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, { once: true })
  })
  model.streaming.add(description)
  try {
    await Promise.race([opened, aborted])
  } finally {
    model.streaming.delete(description)
    signal?.removeEventListener('abort', onAbort)
  }
  if (signal?.aborted) throw new Error('The request was aborted.')
  yield* play(request)
}
