// What a session gives the ask tools: the one way they reach the person and the session's
// mode. `elicit` puts a form to the person (ACP `elicitation/create`, form mode) and is absent
// when the client cannot show one; the mode functions read and switch the session's mode, so
// a switch is logged and sent like any other. Types only; the host implements them.

/** One choice of a form field: its value and the words a person reads. */
export interface ElicitChoice {
  const: string
  title: string
}

/** A form field: a text, a single choice, or several choices. */
export type ElicitField =
  | {
      type: 'string'
      title: string
      description?: string
      default?: string
      oneOf?: ElicitChoice[]
    }
  | {
      type: 'array'
      title: string
      description?: string
      items: { anyOf: ElicitChoice[] }
      default?: string[]
    }

/** What the person is asked: a message and the form's fields. */
export interface ElicitForm {
  message: string
  requestedSchema: {
    type: 'object'
    title?: string
    properties: Record<string, ElicitField>
    required?: string[]
  }
}

/** The person's answer: the form filled in, declined, or the question cancelled. */
export type ElicitAnswer =
  | { action: 'accept'; content: Record<string, unknown> }
  | { action: 'decline' }
  | { action: 'cancel' }

/**
 * Puts one form to the person; the signal (the call's) withdraws it; `callId`, the asking
 * call's id, ties the form to that call's card.
 */
export type Elicit = (
  form: ElicitForm,
  signal?: AbortSignal,
  callId?: string,
) => Promise<ElicitAnswer>

/** One session's channel to the ask tools. */
export interface AskChannel {
  /** Present when the client shows forms; without it `ask_user` is not offered. */
  elicit?: Elicit
  /** The session's mode now. */
  mode(): string | undefined
  /** The mode the session was in before it started planning (`ask` when it began so). */
  modeBeforePlan(): string
  /** Switches the session's mode (logged and sent as any mode change). */
  setMode(mode: string): void
  /** The modes a person may pick to work in after planning: each lets the plan's work run. */
  workModes: readonly AskWorkMode[]
}

/** A mode a plan's work may go on in. */
export interface AskWorkMode {
  id: string
  name: string
  /** The approval's words where no form is shown: `Approve, allow edits`. */
  approve: string
  /** Offered only when the session was in it before planning (full access is never suggested). */
  onlyIfBefore?: boolean
}
