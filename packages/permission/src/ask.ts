// Asking the person about one call: the request (the card, the preview, the options) put on
// the session's `ask` channel, the wait for an answer raced against the call's signal, and what
// the answer means. A session whose host gives no channel gets the host's `unanswered` rule.
// Not the decision whether to ask: that is the gate's.
import { resolve } from 'node:path'
import type {
  ToolCallPresentation,
  ToolEffect,
  ToolExecution,
  ToolLocation,
  ToolPermissionAnswer,
  ToolPermissionOption,
  ToolPermissionRequest,
  ToolPresentationContent,
} from '@deepseek-ai/dsh-tools'
import { cancelledError, rejectedError, unansweredError, unaskedError } from './messages'
import type { PermissionHost } from './host'

/** One call the gate wants the person to decide on. */
export interface PermissionQuestion {
  exec: ToolExecution
  presentation: ToolCallPresentation | undefined
  cwd: string | undefined
  effect: ToolEffect
  /** Every place the call reaches lies inside the session's roots. */
  inside: boolean
  /**
   * What `allow_always` would remember, offered only when set: the call lies inside the
   * session's roots and may be allowed always.
   */
  always: PermissionAlways | undefined
  /** What happens when nothing answers (the host's `unanswered` option). */
  unanswered: 'deny' | 'allow'
  /** The call's own options (ToolCallAccess.choices), offered in place of the usual ones. */
  choices?: readonly ToolPermissionOption[]
  /** Paths of a change that lead through a link, with what they really change. */
  linked?: readonly { path: string; real: string }[]
}

/** The keys "always allow" remembers for a call, and the option's name after "Always allow ". */
export interface PermissionAlways {
  keys: readonly string[]
  label: string
}

/** The person's go-ahead: the option chosen, an allowing one or one of the call's choices. */
export type PermissionGrant = ToolPermissionOption

/**
 * Asks and waits. Rejects with the preview's error (nobody is asked about a call that cannot
 * land), with PERMISSION_REJECTED (a reject, unless the call offered its own choices),
 * PERMISSION_CANCELLED, or PERMISSION_DENIED (unanswered, or the UI could not ask: this call
 * is refused and the turn goes on).
 */
export async function askPerson(
  host: Pick<PermissionHost, 'tools'>,
  question: PermissionQuestion,
): Promise<PermissionGrant> {
  const preview = await host.tools.preview(question.exec)
  const request = permissionRequest(question, preview ?? [])
  // The host opens the call's card as asked (with the preview) before the question goes out.
  question.exec.report?.({ type: 'asked', preview: request.preview })
  const title = request.presentation.title
  const unanswered = async (): Promise<ToolPermissionAnswer> => {
    const first = request.options.find((option) => option.kind === 'allow_once')
    if (question.unanswered === 'allow' && first !== undefined) {
      return { outcome: 'selected', optionId: first.optionId }
    }
    throw unansweredError(title, question.effect, question.inside)
  }
  // The session's own way to the person (a child's is its root's, through the shared scope).
  const channel = question.exec.session.scope.channels.ask
  const answer = await untilAborted(
    () => (channel !== undefined ? channel(request) : unanswered()),
    question.exec.signal,
    () => cancelledError(title, 'signal'),
  )
  if (answer.outcome === 'failed') throw unaskedError(title, answer.reason)
  const option =
    answer.outcome === 'selected'
      ? request.options.find((offered) => offered.optionId === answer.optionId)
      : undefined
  // A `cancelled` outcome, or an option that was not offered, is no answer.
  if (option === undefined) throw cancelledError(title, 'answer')
  if (option.kind === 'reject_once' && question.choices === undefined) throw rejectedError(title)
  return option
}

export function permissionRequest(
  question: PermissionQuestion,
  preview: ToolPresentationContent[],
): ToolPermissionRequest {
  const { exec, cwd, linked = [] } = question
  const card = question.presentation ?? { title: exec.name, kind: 'other' }
  const presentation: ToolCallPresentation = { ...card }
  if (card.locations !== undefined) presentation.locations = absolute(card.locations, cwd)
  const options = question.choices?.map((option) => ({
    ...option,
    name: plainOptionName(option.name),
  }))
  const offered = options ?? permissionOptions(question.always)
  if (linked.length === 0) return { exec, presentation, preview, options: offered }
  // A change through a link: the question names the file that will really change.
  const reals = linked.map((link) => link.real)
  presentation.title = `${card.title} → ${reals.join(', ')}`
  presentation.locations = (presentation.locations ?? []).map((location) => {
    const link = linked.find((candidate) => candidate.path === location.path)
    return link === undefined ? location : { ...location, path: link.real }
  })
  const said = linked.map((link) => `${link.path} leads to ${link.real}: that is what changes.`)
  const lead: ToolPresentationContent = { type: 'text', text: said.join('\n') }
  return { exec, presentation, preview: [lead, ...preview], options: offered }
}

/** The longest option name: a plain label a client shows on a button or a list line. */
export const OPTION_NAME_MAX_CHARS = 79

/**
 * An option's name as every client shows it: plain text (no Markdown code spans or bold),
 * on one line, at most OPTION_NAME_MAX_CHARS long. What the call does in full is the request's
 * content.
 */
export function plainOptionName(name: string): string {
  const plain = name
    .replace(/`|\*\*/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  if (plain.length <= OPTION_NAME_MAX_CHARS) return plain
  return `${plain.slice(0, OPTION_NAME_MAX_CHARS - 1).trimEnd()}…`
}

export function permissionOptions(always: PermissionAlways | undefined): ToolPermissionOption[] {
  const name = always === undefined ? '' : plainOptionName(`Always allow ${always.label}`)
  const allowAlways: ToolPermissionOption[] =
    always === undefined ? [] : [{ optionId: 'allow_always', kind: 'allow_always', name }]
  return [
    { optionId: 'allow_once', kind: 'allow_once', name: 'Allow' },
    ...allowAlways,
    { optionId: 'reject_once', kind: 'reject_once', name: 'Reject' },
  ]
}

/** Locations made absolute against the session cwd, lexically; `line` kept. Without a cwd, as given. */
function absolute(locations: readonly ToolLocation[], cwd: string | undefined): ToolLocation[] {
  return locations.map((location) =>
    cwd === undefined ? { ...location } : { ...location, path: resolve(cwd, location.path) },
  )
}

/** `work()`, unless `signal` fires first: then the `aborted()` error, without waiting on. */
async function untilAborted<T>(
  work: () => Promise<T>,
  signal: AbortSignal | undefined,
  aborted: () => Error,
): Promise<T> {
  if (signal === undefined) return work()
  if (signal.aborted) throw aborted()
  let onAbort = (): void => undefined
  const abort = new Promise<never>((_, reject) => {
    onAbort = () => reject(aborted())
    signal.addEventListener('abort', onAbort, { once: true })
  })
  try {
    return await Promise.race([work(), abort])
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}
