// AskQueue: one ACP session's questions to its person, one at a time. A question about a call
// (its card went out `pending` with the preview when the call was reported asked) becomes
// `session/request_permission` for that card; the client answering `cancelled` cancels the
// prompt, as ACP means it; a request the connection could not carry counts as `cancelled`; a
// client that answers with a JSON-RPC error could not ask the person: `failed` refuses this call
// only, and the turn goes on. A child session's questions join its parent's queue, each asked on
// the session its call's card is on (the parent's, or the child's subagent session), its title
// led by the task's (`Task "Fix the tests": Write a.txt`), so it never reads as the parent's.
import { RequestError } from '@agentclientprotocol/sdk'
import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk'
import type { ToolPermissionAnswer, ToolPermissionRequest } from '@deepseek-ai/dsh-tools'
import {
  fromAcpPermissionError,
  fromAcpPermissionResponse,
  toAcpPermissionRequest,
} from '../wire/permission'
import type { AcpShownSession } from './child-sessions'

export interface AskQueueOptions {
  cwd: string
  /** Where a question's call has its card: the cards and their wire session. */
  targetOf: (request: ToolPermissionRequest) => AcpShownSession
  /** Asks the client; the signal cancels the request. */
  requestPermission: (
    params: RequestPermissionRequest,
    signal?: AbortSignal,
  ) => Promise<RequestPermissionResponse>
  /** The person's answer was `cancelled`: the prompt is cancelled. */
  onCancelled: () => void
}

export class AskQueue {
  /** The question being asked, if any: the next waits for it. */
  private asking: Promise<void> = Promise.resolve()

  constructor(private readonly options: AskQueueOptions) {}

  ask(request: ToolPermissionRequest): Promise<ToolPermissionAnswer> {
    const asked = this.asking.then(() => this.askNow(request))
    this.asking = asked.then(
      () => undefined,
      () => undefined,
    )
    return asked
  }

  private async askNow(request: ToolPermissionRequest): Promise<ToolPermissionAnswer> {
    const { exec } = request
    const { cwd, requestPermission } = this.options
    // A question that waited behind another whose answer cancelled the turn is not asked.
    if (exec.signal?.aborted) return { outcome: 'cancelled' }
    const { cards, sessionId, task } = this.options.targetOf(request)
    const wireId = cards.wireIdOf(exec.callId) ?? exec.callId
    const card = cards.askedCardOf(exec.callId)
    const params = toAcpPermissionRequest(sessionId, wireId, request, cwd, card)
    if (task !== undefined) params.toolCall.title = `Task "${task}": ${params.toolCall.title ?? ''}`
    let answer: ToolPermissionAnswer
    try {
      answer = fromAcpPermissionResponse(await requestPermission(params, exec.signal))
    } catch (error) {
      // An error answer from the client, unless the turn cancelled the request itself; any
      // other failure is the connection going away: nobody answered.
      answer =
        error instanceof RequestError && !exec.signal?.aborted
          ? fromAcpPermissionError(error)
          : { outcome: 'cancelled' }
    }
    if (answer.outcome === 'cancelled') this.options.onCancelled()
    return answer
  }
}
