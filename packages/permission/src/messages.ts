// The PermissionErrors the gate throws, worded for the model that made the call: what
// happened, and what to do instead (ask the person, never retry a rejected call); and, apart,
// the sentence the person reads on the card (what happened, in their terms). Each mode is
// named by its name, never its id, since the model passes it on to a person.
import { PermissionError } from './errors'
import { modeName, modesWhere } from './modes'
import type { ToolEffect } from '@deepseek-ai/dsh-tools'
import type { PermissionConfinement, PermissionModeId } from './modes'

/** The mode refuses this call (`read-only` and writes, commands or network calls). */
export function refusedError(
  mode: PermissionModeId,
  effect: ToolEffect,
  inside: boolean,
  confined?: PermissionConfinement,
): PermissionError {
  const what = effect === 'write' ? 'Edits' : effect === 'read' ? 'Reads' : 'Such calls'
  if (mode === 'plan') {
    return new PermissionError(
      'PERMISSION_DENIED',
      `${what} are refused: the session is planning, so nothing may change yet. Read and ` +
        `search as you need, then present the plan with exit_plan_mode; the person reviews ` +
        `it, and once they approve it the session leaves plan mode and the change can be made.`,
      { forPerson: 'Not run: the session is planning; nothing changes until you approve a plan.' },
    )
  }
  const wanted = effect === 'write' ? 'the change' : 'the call'
  // Modes that would ask or run it; full access is the person's own idea, never suggested.
  const modes = modesWhere(effect, inside, ['ask', 'allow'], confined).filter(
    (id) => id !== 'full-access' && id !== 'plan',
  )
  return new PermissionError(
    'PERMISSION_DENIED',
    `${what} are refused in the "${modeName(mode)}" mode of this session. Ask the person to ` +
      `switch the session to ${quotedModes(modes)} if ${wanted} is wanted.`,
    { forPerson: `Not run: the "${modeName(mode)}" mode refuses ${what.toLowerCase()}.` },
  )
}

/** The session has no `ask` channel and the host's `unanswered` option is `deny`. */
export function unansweredError(
  title: string,
  effect: ToolEffect,
  inside: boolean,
): PermissionError {
  const modes = modesWhere(effect, inside, ['allow'])
  return new PermissionError(
    'PERMISSION_DENIED',
    `Nothing here can ask the person whether to allow "${title}", and this host denies such ` +
      `calls when nobody can be asked (a host that wants them to run sets the permission ` +
      `layer's \`unanswered\` option to "allow"). Do not retry it; tell the person, who can ` +
      `switch the session to ${quotedModes(modes)} to let it run without asking.`,
    { forPerson: 'Not run: nothing here could ask you about it.' },
  )
}

/** The UI that answers for the session could not put the question to the person. */
export function unaskedError(title: string, reason: string): PermissionError {
  return new PermissionError(
    'PERMISSION_DENIED',
    `The editor could not ask the person whether to allow "${title}" (${reason}), so the ` +
      `call did not run. Do not retry it; tell the person what you wanted to do, so they can ` +
      `allow it another way.`,
    { forPerson: `Not run: the editor could not ask you about it (${reason}).` },
  )
}

/** The person chose `reject_once`. */
export function rejectedError(title: string): PermissionError {
  return new PermissionError(
    'PERMISSION_REJECTED',
    `The person rejected "${title}". Do not retry the same call; ask the person what they ` +
      `want to do instead.`,
    { forPerson: 'Rejected: not run.' },
  )
}

/** No answer came: the turn was cancelled (`signal`) or the UI answered `cancelled`. */
export function cancelledError(title: string, by: 'signal' | 'answer'): PermissionError {
  const why =
    by === 'signal' ? 'the turn was cancelled' : 'the request was cancelled without an answer'
  return new PermissionError(
    'PERMISSION_CANCELLED',
    `The person was asked whether to allow "${title}", but ${why}; the call did not run.`,
    { forPerson: `Not run: ${why}.` },
  )
}

/** `"A"`, `"A" or "B"`, `"A", "B" or "C"`. */
function quotedModes(ids: readonly PermissionModeId[]): string {
  const names = ids.map((id) => `"${modeName(id)}"`)
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
}
