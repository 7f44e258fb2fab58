// How the permission layer judges a call of `bash`: a command whose every part is on the
// allow-list (./classify) is a read, its scope the workspace and every file it reads, so a
// file outside the session's roots is asked as the `read` tool's would be. Any other command
// is `other`, and "always allow" remembers what its parts that are not read-only do, each
// said in words (`git add …`, `writing to out.txt`): allowing one never lets another through,
// and a pipe into read-only filters adds nothing to ask. When a part can be remembered only as
// the command itself (a loop, a wrapper, an interpreter's inline code, git's `-c`), or the
// command does not parse, "always allow" remembers that exact command. The files read go in
// the scope either way, so nothing outside the roots is ever always allowed.
// The confinement the provider gives the command (none for the plain local one; ./confine
// says which, by mode and by whether it only reads) goes with it; when the mode asks for one
// the provider cannot give, the person is told why, once per session (./notice). A call that
// escalates out of the sandbox is always asked.
import type { Shell } from '@deepseek-ai/dsh-shell'
import type { ToolCallAccess, ToolExecution } from '@deepseek-ai/dsh-tools'
import { classifyCommand, isReadOnly } from '@deepseek-ai/dsh-shell-policy'
import type { CommandAllow, CommandPart } from '@deepseek-ai/dsh-shell-policy'
import { confinementOf, cwdOf } from './confine'
import { lookAtDisk } from './disk-look'
import { GIT_GUARD_ENV, guardedCommand, runsGit } from './git-guard'
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
  const cwd = cwdOf(exec)
  if (options.escalate === true) {
    return { effect: 'execute', scope: [cwd], askAlways: true }
  }
  const { parsed, parts, reads, scope } = await judgeCommand(command, exec)
  const confined = confinementFor(shell, exec, { ...options, reads })
  if (reads) return { effect: 'read', scope, ...(confined !== undefined && { confined }) }
  // A command runs code, whatever it reaches: it is judged by its confinement, never as a web
  // call (one that needs the network fails at once in a sandbox without it, see offline.ts).
  return {
    effect: 'execute',
    scope,
    always: alwaysOf(command, parsed ? parts : undefined),
    ...(confined !== undefined && { confined }),
  }
}

export interface CommandJudgement {
  parsed: boolean
  parts: readonly CommandPart[]
  /** It only reads, as the classifier and the disk judge it: it may run unasked in `ask`. */
  reads: boolean
  /** The workspace and every file read, resolved physically. */
  scope: string[]
}

/** The command judged: its text by the classifier, what it reaches by the disk. */
export async function judgeCommand(
  command: string,
  exec: ToolExecution,
): Promise<CommandJudgement> {
  const cwd = cwdOf(exec)
  const classified = await classifyCommand(command)
  const parts = classified.parsed ? classified.parts : []
  const readOnly = classified.parsed && isReadOnly(parts)
  const roots = exec.session.header.roots ?? [cwd]
  const view = { cwd, roots, searchPath: process.env.PATH }
  const look = await lookAtDisk(parts, view, readOnly)
  const reads = readOnly && look.asks === undefined
  return { parsed: classified.parsed, parts, reads, scope: [cwd, ...look.scope] }
}

export interface CommandRun {
  /** The command as it runs (a read-only one's diff printers guarded: ./git-guard). */
  command: string
  /** Its text only reads, as the classifier judges it. */
  reads: boolean
  /** Added to the command's environment (git's forced config). */
  env?: Readonly<Record<string, string>>
}

/**
 * How the call's command runs: one whose text only reads (in every mode but `full-access`, and
 * never escalated) runs read-only and runs its git guarded. Judged on the text alone, never on
 * the disk again: a disk changed since the access hook looked can make a command run with
 * more confinement than it was judged to need, never with less.
 */
export async function commandRun(
  command: string,
  exec: ToolExecution,
  escalate: boolean,
): Promise<CommandRun> {
  const header = exec.session.header
  if (escalate || header.mode === 'full-access') {
    return { command, reads: false }
  }
  const classified = await classifyCommand(command)
  const reads = classified.parsed && isReadOnly(classified.parts)
  if (!reads || !runsGit(classified.parts)) return { command, reads }
  return { command: guardedCommand(command, classified.parts), reads, env: GIT_GUARD_ENV }
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

/** What "always allow" remembers: what each asked part does, or the exact command. */
function alwaysOf(command: string, parts: readonly CommandPart[] | undefined) {
  const asked = parts?.filter((part) => !part.readOnly) ?? []
  const allows = asked.map((part) => part.allow)
  if (asked.length === 0 || allows.some((allow) => allow === undefined)) {
    return {
      keys: [`${KEY}exactly ${command}`],
      // The command itself is in the question's content; an option's name stays short.
      label: 'this exact command in this session',
    }
  }
  const unique = [
    ...new Map((allows as CommandAllow[]).map((allow) => [allow.key, allow])).values(),
  ]
  return {
    keys: unique.map((allow) => KEY + allow.key),
    label: `${listOf(unique.map((allow) => allow.label))} in this session`,
  }
}

/** `a`, `a and b`, `a, b and c`. */
function listOf(items: readonly string[]): string {
  if (items.length === 1) return items[0] as string
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}
