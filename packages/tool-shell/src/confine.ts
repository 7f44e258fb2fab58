// The confinement a call of the shell tools asks its provider for, from the session's mode:
// the one table of which commands run in a sandbox. `auto-edit` confines writes to the
// session's roots, `read-only` to nowhere; `ask` asks for none (a command the person approved
// runs as approved) and `full-access` neither. A call that escalates asks for none either: it
// is always put to the person (./access). A provider that cannot confine (shell-local, or no
// working sandbox) runs the command as it is and says so; a sandboxing one honours the request,
// and the permission layer learns that through the tool's `access` hook. Pure.
import type { ShellConfinement, ShellConfinementLevel } from '@deepseek-ai/dsh-shell'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'

/** What each mode asks the provider for; a mode not listed (or none) asks for nothing. */
export const CONFINEMENT_BY_MODE: Readonly<Record<string, ShellConfinementLevel | undefined>> = {
  ask: undefined,
  'auto-edit': 'workspace',
  'read-only': 'read-only',
  plan: 'read-only',
  'full-access': undefined,
}

export interface ConfinementOptions {
  /** The call leaves the sandbox (`escalate: true`). */
  escalate?: boolean
  /** A confined command may reach the network. */
  network?: boolean
}

/** The session workspace of a call (the process cwd for a call without a session). */
export function cwdOf(exec: ToolExecution): string {
  return exec.agent?.session.header.cwd ?? process.cwd()
}

/** What the call asks its provider for; `undefined`: run it unconfined. */
export function confinementOf(
  exec: ToolExecution,
  options: ConfinementOptions = {},
): ShellConfinement | undefined {
  const header = exec.agent?.session.header
  if (header === undefined || options.escalate === true) return undefined
  const mode = header.mode
  const level =
    mode !== undefined && Object.hasOwn(CONFINEMENT_BY_MODE, mode)
      ? CONFINEMENT_BY_MODE[mode]
      : undefined
  if (level === undefined) return undefined
  const writable = level === 'workspace' ? [...(header.roots ?? [header.cwd])] : []
  return { writable, network: options.network === true }
}
