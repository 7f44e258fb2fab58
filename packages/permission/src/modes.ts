// The permission modes and the decision table: for a mode, a call's effect (none, read, write,
// execute, network) and whether every place it touches lies inside the session's roots, whether the call runs,
// asks the person first, or is refused. Pure data and lookups; no I/O, no Cordis. The table is
// the README's, written once here so the gate and the messages read the same cells.
import type { ToolEffect } from '@deepseek-ai/dsh-tools'

export const PERMISSION_MODES = [
  {
    id: 'ask',
    name: 'Ask before edits',
    description:
      'Reads inside the workspace run; edits, and anything outside the workspace, ask first.',
  },
  {
    id: 'auto-edit',
    name: 'Edit automatically',
    description: 'Reads and edits inside the workspace run; anything outside it asks first.',
  },
  {
    id: 'read-only',
    name: 'Read only',
    description:
      'Reads inside the workspace run, reads outside it ask first, and edits and other calls are refused.',
  },
  {
    id: 'full-access',
    name: 'Full access',
    description: 'Everything runs without asking.',
  },
  {
    id: 'plan',
    name: 'Plan',
    description:
      'The agent looks around and proposes a plan; nothing changes until the person approves it.',
  },
] as const satisfies readonly { id: string; name: string; description: string }[]

export type PermissionModeId = (typeof PERMISSION_MODES)[number]['id']

/** One mode as a UI lists it: its id, its name for a person, and one sentence on what it does. */
export interface PermissionMode {
  id: PermissionModeId
  name: string
  description: string
}

export const PERMISSION_MODE_IDS = PERMISSION_MODES.map((mode) => mode.id)

export function isPermissionModeId(value: unknown): value is PermissionModeId {
  return PERMISSION_MODES.some((mode) => mode.id === value)
}

/** The mode's name as a person reads it, e.g. `Read only`. */
export function modeName(id: PermissionModeId): string {
  return PERMISSION_MODES.find((mode) => mode.id === id)?.name ?? id
}

/** What happens to a call: it runs, the person is asked first, or it is refused. */
export type PermissionDecision = 'allow' | 'ask' | 'refuse'

/** How the operating system confines a call's writes (see ToolCallAccess.confined). */
export type PermissionConfinement = 'workspace' | 'read-only'

type PermissionCell =
  | 'readInside'
  | 'readOutside'
  | 'editInside'
  | 'editOutside'
  | 'other'
  | 'otherInWorkspace'
  | 'otherReadOnly'

const DECISIONS: Record<PermissionModeId, Record<PermissionCell, PermissionDecision>> = {
  ask: {
    readInside: 'allow',
    readOutside: 'ask',
    editInside: 'ask',
    editOutside: 'ask',
    other: 'ask',
    otherInWorkspace: 'ask',
    otherReadOnly: 'ask',
  },
  'auto-edit': {
    readInside: 'allow',
    readOutside: 'ask',
    editInside: 'allow',
    editOutside: 'ask',
    other: 'ask',
    otherInWorkspace: 'allow',
    otherReadOnly: 'allow',
  },
  'read-only': {
    readInside: 'allow',
    readOutside: 'ask',
    editInside: 'refuse',
    editOutside: 'refuse',
    other: 'refuse',
    otherInWorkspace: 'refuse',
    otherReadOnly: 'allow',
  },
  'full-access': {
    readInside: 'allow',
    readOutside: 'allow',
    editInside: 'allow',
    editOutside: 'allow',
    other: 'allow',
    otherInWorkspace: 'allow',
    otherReadOnly: 'allow',
  },
  plan: {
    readInside: 'allow',
    readOutside: 'ask',
    editInside: 'refuse',
    editOutside: 'refuse',
    other: 'refuse',
    otherInWorkspace: 'refuse',
    otherReadOnly: 'allow',
  },
}

/**
 * The table's cell for a call. A call with no effect outside the agent (`none`, a plan update)
 * runs in every mode; `inside` only matters for reads and writes; `confined` only for calls
 * that run code or reach the network (a command the operating system keeps from writing
 * outside the roots, or at all).
 */
export function decide(
  mode: PermissionModeId,
  effect: ToolEffect,
  inside: boolean,
  confined?: PermissionConfinement,
): PermissionDecision {
  if (effect === 'none') return 'allow'
  return DECISIONS[mode][cellOf(effect, inside, confined)]
}

function cellOf(
  effect: Exclude<ToolEffect, 'none'>,
  inside: boolean,
  confined: PermissionConfinement | undefined,
): PermissionCell {
  if (effect === 'read') return inside ? 'readInside' : 'readOutside'
  if (effect === 'write') return inside ? 'editInside' : 'editOutside'
  if (confined === 'workspace') return 'otherInWorkspace'
  if (confined === 'read-only') return 'otherReadOnly'
  return 'other'
}

/**
 * A call whose effect is `network` (a web fetch or search): asked in every mode but full access,
 * read-only included (it changes nothing here, but what it sends leaves the machine), and
 * never refused; the roots do not matter.
 */
export function decideNetwork(mode: PermissionModeId): PermissionDecision {
  return mode === 'full-access' ? 'allow' : 'ask'
}

/** The modes in which the same call would get one of `decisions`, in table order. */
export function modesWhere(
  effect: ToolEffect,
  inside: boolean,
  decisions: readonly PermissionDecision[],
  confined?: PermissionConfinement,
): PermissionModeId[] {
  return PERMISSION_MODE_IDS.filter((id) =>
    decisions.includes(decide(id, effect, inside, confined)),
  )
}
