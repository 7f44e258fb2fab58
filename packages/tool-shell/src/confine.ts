// The confinement a call of the shell tools asks its provider for: the one table of which
// commands run in a sandbox, by the session's mode and by whether the command only reads (as
// the classifier judged it, which is also what makes it run unasked in `ask`). Every command
// that runs unasked in a mode but `full-access` is confined, so a command the classifier got
// wrong can neither write nor see the agent's processes: in `ask` a read-only command runs in
// the read-only sandbox (no writes, no network, its own processes only) and any other is put
// to the person and runs as approved; in `auto-edit` every command may write the session's
// roots (what the mode lets it do anyway); in `read-only` none writes. A call that escalates
// asks for none: it is always put to the person (./access). A provider that cannot confine
// (shell-local, or no working sandbox) runs the command as it is and says so once; a
// sandboxing one honours the request, and the permission layer learns that through the
// tool's `access` hook. Pure.
import type { ShellConfinement, ShellConfinementLevel } from '@deepseek-ai/dsh-shell'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'

/** What a mode asks the provider for: for a command that only reads, and for any other. */
export interface ModeConfinement {
  reads: ShellConfinementLevel | undefined
  other: ShellConfinementLevel | undefined
}

/** Each mode's confinements; a mode not listed (or none) asks for nothing. */
export const CONFINEMENT_BY_MODE: Readonly<Record<string, ModeConfinement>> = {
  ask: { reads: 'read-only', other: undefined },
  'auto-edit': { reads: 'workspace', other: 'workspace' },
  'read-only': { reads: 'read-only', other: 'read-only' },
  plan: { reads: 'read-only', other: undefined },
  'full-access': { reads: undefined, other: undefined },
}

export interface ConfinementOptions {
  /** The call leaves the sandbox (`escalate: true`). */
  escalate?: boolean
  /** A confined command may reach the network. */
  network?: boolean
  /** The command only reads, as the classifier judged it. */
  reads?: boolean
}

/** The session workspace of a call. */
export function cwdOf(exec: ToolExecution): string {
  return exec.session.header.cwd
}

/**
 * Whether the call's confinement depends on the command only reading: when it does not (as
 * in `full-access` or `auto-edit`), the command need not be classified to run.
 */
export function dependsOnReads(exec: ToolExecution, options: ConfinementOptions = {}): boolean {
  const row = rowOf(exec)
  return options.escalate !== true && row !== undefined && row.reads !== row.other
}

function rowOf(exec: ToolExecution): ModeConfinement | undefined {
  const mode = exec.session.header.mode
  return mode !== undefined && Object.hasOwn(CONFINEMENT_BY_MODE, mode)
    ? CONFINEMENT_BY_MODE[mode]
    : undefined
}

/** What the call asks its provider for; `undefined`: run it unconfined. */
export function confinementOf(
  exec: ToolExecution,
  options: ConfinementOptions = {},
): ShellConfinement | undefined {
  const header = exec.session.header
  if (options.escalate === true) return undefined
  const row = rowOf(exec)
  const level = options.reads === true ? row?.reads : row?.other
  if (level === undefined) return undefined
  const writable = level === 'workspace' ? [...(header.roots ?? [header.cwd])] : []
  return { writable, network: options.network === true }
}
