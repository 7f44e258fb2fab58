// How a command that runs unasked because it only reads runs its git: so that no program a
// git config names can run. A repository's own config (a fixture's, a nested repository's, one
// a downloaded workspace came with, and every file it includes) may name programs that git
// runs on a plain read: `core.fsmonitor` on `status`, `diff` and `ls-files`, hooks
// (`core.hooksPath`; `post-index-change` when a read refreshes the index), a textconv or an
// external diff (`diff.external`, `diff.<driver>.command`, `diff.<driver>.textconv`) on
// `diff`, `log -p` and `show`, `gpg.program` on a signature check (`log.showSignature`), and,
// on a lazy fetch of a partial clone, a transport (`core.sshCommand`, `ext::`, an upload-pack,
// `credential.helper`). The command runs with git config given in its environment
// (`GIT_CONFIG_PARAMETERS`, which git reads as `-c` options, the highest scope, in every git
// the command starts): fsmonitor off, hooks in /dev/null, signatures not shown, a bare repository
// only when named (`safe.bareRepository=explicit`: a fixture is never found by walking into
// it); every transport refused (`GIT_ALLOW_PROTOCOL` empty); and each diff printer gets
// `--no-ext-diff --no-textconv` after its name. What is left, filter drivers
// (`filter.<name>.clean`), has no switch: ./disk-look asks for a git part that would use
// another repository than the workspace's own. Pure.
import type { CommandPart } from '@deepseek-ai/dsh-shell-policy'

/** Config given to every git of a read-only command, as `-c` options are. */
const FORCED_CONFIG: readonly [string, string][] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['log.showSignature', 'false'],
  ['safe.bareRepository', 'explicit'],
  ['credential.helper', ''],
  ['core.sshCommand', 'false'],
]

/**
 * The environment of a read-only command that runs git. `GIT_CONFIG_PARAMETERS` is how git
 * passes `-c` options to the gits it starts, in the form every git version reads.
 */
export const GIT_GUARD_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_PARAMETERS: FORCED_CONFIG.map(([key, value]) => `'${key}=${value}'`).join(' '),
  GIT_ALLOW_PROTOCOL: '',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
}

const DIFF_OPTIONS = ' --no-ext-diff --no-textconv'

/** The command as it runs: each diff printer given `--no-ext-diff --no-textconv`. */
export function guardedCommand(command: string, parts: readonly CommandPart[]): string {
  const at = parts
    .map((part) => part.git?.diffOptionsAt)
    .filter((index) => index !== undefined)
    .sort((a, b) => b - a)
  let guarded = command
  for (const index of at) guarded = guarded.slice(0, index) + DIFF_OPTIONS + guarded.slice(index)
  return guarded
}

/** The command runs git (as a read-only part). */
export function runsGit(parts: readonly CommandPart[]): boolean {
  return parts.some((part) => part.git !== undefined)
}
