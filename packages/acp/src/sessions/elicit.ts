// A session's channel to the person's forms: `elicitation/create` in form mode, tied to the
// session, to a client that advertised `elicitation.form` in `initialize` (none otherwise),
// and to the asking call's card (`toolCallId`, the elicitation's session scope) when a call asks.
// The answer comes back as the client gave it (accept with the filled form, decline, cancel);
// the call's signal withdraws the request (`$/cancel_request`) and the form counts as
// cancelled. A tool receives this one function; it never sees the connection.
import { methods } from '@agentclientprotocol/sdk'
import type {
  AgentConnection,
  ClientCapabilities,
  CreateElicitationResponse,
  ElicitationSchema,
} from '@agentclientprotocol/sdk'

/** One form for the person: a message and the fields (a JSON Schema of primitive fields). */
export interface AcpElicitForm {
  message: string
  requestedSchema: ElicitationSchema
}

/** The person's answer: the form filled in, declined, or the question cancelled. */
export type AcpElicitAnswer =
  | { action: 'accept'; content: Record<string, unknown> }
  | { action: 'decline' }
  | { action: 'cancel' }

/** Puts one form to the person of a session; the signal withdraws it; `callId` (the model's
 * id of the asking call) ties it to that call's card. */
export type AcpElicit = (
  form: AcpElicitForm,
  signal?: AbortSignal,
  callId?: string,
) => Promise<AcpElicitAnswer>

/** True when the client shows forms (`elicitation.form` in its capabilities). */
export function offersElicitation(capabilities: ClientCapabilities | undefined): boolean {
  return capabilities?.elicitation?.form != null
}

/**
 * The client's answer as the tool takes it. The SDK does not check a response's shape, so
 * anything that is not an object with a known action (`null`, a string, an unknown action)
 * counts as cancelled, and an accept's content that is not an object as an empty form.
 */
export function fromAcpElicitation(response: CreateElicitationResponse | unknown): AcpElicitAnswer {
  if (typeof response !== 'object' || response === null) return { action: 'cancel' }
  const { action } = response as { action?: unknown }
  if (action === 'accept') {
    const content = (response as { content?: unknown }).content
    const fields = typeof content === 'object' && content !== null && !Array.isArray(content)
    return { action: 'accept', content: fields ? { ...content } : {} }
  }
  return action === 'decline' ? { action: 'decline' } : { action: 'cancel' }
}

/**
 * The channel of session `sessionId`, or undefined when the client shows no forms.
 * `toolCallIdOf` gives the wire id of a call's card (undefined: no card, the form is the
 * session's).
 */
export function acpElicitOf(
  connection: AgentConnection,
  sessionId: string,
  capabilities: ClientCapabilities | undefined,
  toolCallIdOf: (callId: string) => string | undefined = () => undefined,
): AcpElicit | undefined {
  if (!offersElicitation(capabilities)) return undefined
  return async (form, signal, callId) => {
    if (signal?.aborted) return { action: 'cancel' }
    const toolCallId = callId === undefined ? undefined : toolCallIdOf(callId)
    const { message, requestedSchema } = form
    try {
      const response = await connection.client.request(
        methods.client.elicitation.create,
        { sessionId, ...(toolCallId && { toolCallId }), mode: 'form', message, requestedSchema },
        { ...(signal && { cancellationSignal: signal }), stopWaitingOnCancel: true },
      )
      return fromAcpElicitation(response)
    } catch (error) {
      // Withdrawn by the call's signal (a session/cancel): the question ends as cancelled.
      if (signal?.aborted) return { action: 'cancel' }
      throw error
    }
  }
}
