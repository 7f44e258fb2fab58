// How the permission layer judges a call of `bash`: a command whose every part only reads is a
// read of the session workspace; any other is `other`, and "always allow" remembers the
// prefixes of its parts that are not read-only (`git add`, `npm test`), so allowing one never
// lets another through, and a pipe into read-only filters adds nothing to ask. A command that
// does not parse is `other` too, and "always allow" remembers only that exact command.
// The confinement the provider gives the command (none for the plain local one; ./confine
// says which, by mode and by whether it only reads) goes with it; when the mode asks for one
// the provider cannot give, the person is told why, once per session (./notice). A call that
// escalates out of the sandbox is always asked.
import type { Shell } from '@deepseek-ai/dsh-shell'
import type { ToolCallAccess, ToolExecution } from '@deepseek-ai/dsh-tools'
import { classifyCommand, isReadOnly } from './classify'
import { confinementOf, cwdOf } from './confine'
import type { UnsandboxedNotices } from './notice'

/** Keys are namespaced so no command prefix can equal another tool's key. */
const KEY = 'bash: '

export interface BashAccessOptions {
  /** The call runs outside the sandbox (`escalate: true`). */
  escalate?: boolean
  /** A confined command may reach the network. */
  network?: boolean
  /** Where the one-time word about a missing sandbox goes. */
  notices?: UnsandboxedNotices
}

export async function bashAccess(
  shell: Pick<Shell, 'confinement' | 'unconfinedReason'>,
  command: string,
  exec: ToolExecution,
  options: BashAccessOptions = {},
): Promise<ToolCallAccess> {
  const scope = [cwdOf(exec)]
  if (options.escalate === true) return { access: 'other', scope, askAlways: true }
  const classified = await classifyCommand(command)
  const reads = classified.parsed && isReadOnly(classified.parts)
  const confined = confinementFor(shell, exec, { ...options, reads })
  if (reads) return { access: 'read', scope, ...(confined !== undefined && { confined }) }
  const prefixes = classified.parsed
    ? [...new Set(classified.parts.filter((part) => !part.readOnly).map((part) => part.prefix))]
    : []
  const always =
    prefixes.length > 0
      ? {
          keys: prefixes.map((prefix) => KEY + prefix),
          label: `${listOf(prefixes)} commands in this session`,
        }
      : { keys: [`${KEY}exactly ${command}`], label: 'this exact command in this session' }
  return { access: 'other', scope, always, ...(confined !== undefined && { confined }) }
}

/** The command only reads, as the classifier judges it: what lets it run unasked in `ask`. */
export async function readsOnly(command: string): Promise<boolean> {
  const classified = await classifyCommand(command)
  return classified.parsed && isReadOnly(classified.parts)
}

/** The confinement the provider gives the call; telling the session once when it gives none. */
function confinementFor(
  shell: Pick<Shell, 'confinement' | 'unconfinedReason'>,
  exec: ToolExecution,
  options: BashAccessOptions & { reads: boolean },
) {
  const request = confinementOf(exec, options)
  const confined = request === undefined ? undefined : shell.confinement(request)
  if (request !== undefined && confined === undefined) {
    const reason = shell.unconfinedReason()
    if (reason !== undefined) options.notices?.tell(exec, reason)
  }
  return confined
}

/** `` `a` ``, `` `a` and `b` ``, `` `a`, `b` and `c` ``. */
function listOf(prefixes: readonly string[]): string {
  const quoted = prefixes.map((prefix) => `\`${prefix}\``)
  if (quoted.length === 1) return quoted[0] as string
  return `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`
}
