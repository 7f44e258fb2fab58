// The confinement a call of the shell tools asks its provider for, from the session: writes
// only inside the session's roots, or, in the `read-only` mode, nowhere. A provider that
// cannot confine (shell-local) runs the command as it is and says so; a sandboxing one honours
// it, and the permission layer learns that through the tool's `access` hook. Pure.
import type { ShellConfinement } from '@deepseek-ai/dsh-shell'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'

/** The session workspace of a call (the process cwd for a call without a session). */
export function cwdOf(exec: ToolExecution): string {
  return exec.agent?.session.header.cwd ?? process.cwd()
}

export function confinementOf(exec: ToolExecution): ShellConfinement {
  const header = exec.agent?.session.header
  const cwd = cwdOf(exec)
  const writable = header?.mode === 'read-only' ? [] : [...(header?.roots ?? [cwd])]
  return { writable, network: true }
}
