// What "always allow" remembers of a git command that is asked: `git <subcommand>`, unless
// the command changes what git runs or where it works — a global option other than a few that
// only change output (`-c`, `--config-env`, `--exec-path`, `--git-dir`, `--work-tree`,
// `--namespace`, `-C` to an absolute path or out through `..`), a subcommand git does not
// build in (an alias, or a `git-<name>` program), `git config` (which can set a command to
// run), or an option of the subcommand that runs a program (`rebase --exec`, `clone -c`,
// `--upload-pack`, `difftool -x`, `submodule foreach`, `bisect run`, …). Those are remembered
// as the exact command only. Pure.
import { allowing } from './allow-key'
import type { CommandAllow } from './allow-key'
import { names } from './options'

/** Global options that only change how git prints. */
const HARMLESS_GLOBALS = new Set(
  names(
    `--no-pager -P --paginate -p --no-optional-locks --literal-pathspecs --no-replace-objects --glob-pathspecs --noglob-pathspecs --icase-pathspecs`,
  ),
)

/** Subcommands git builds in; any other word is an alias or another program. */
const BUILTINS = new Set(
  names(
    `add am annotate apply archive bisect blame branch bundle cat-file checkout cherry cherry-pick clean clone commit count-objects describe diff difftool fetch for-each-ref format-patch fsck gc grep hash-object init log ls-files ls-remote ls-tree maintenance merge merge-base mergetool mv notes prune pull push range-diff rebase reflog remote repack replace rerere reset restore revert rev-list rev-parse rm shortlog show show-branch show-ref sparse-checkout stash status submodule switch tag update-index version whatchanged worktree`,
  ),
)

/** Options of any subcommand that name a program to run, or config that may. */
const RUNS_ANYWHERE = names(
  `--exec --upload-pack --receive-pack --extcmd --tool --sendmail-cmd --smtp-server --to-cmd --cc-cmd --config --template --exec-path`,
)
/** Short options that run a program, by subcommand. */
const RUNS_SHORT: Readonly<Record<string, readonly string[]>> = {
  rebase: ['-x'],
  difftool: ['-x', '-t'],
  mergetool: ['-t'],
  clone: ['-c', '-u'],
  submodule: ['foreach'],
  bisect: ['run'],
}

export function gitAllow(args: readonly string[]): CommandAllow | undefined {
  let i = 0
  for (; i < args.length; i++) {
    const arg = args[i] as string
    if (HARMLESS_GLOBALS.has(arg)) continue
    if (arg !== '-C') break
    const folder = args[++i]
    if (folder === undefined || folder.startsWith('/') || folder.split('/').includes('..')) {
      return undefined
    }
  }
  const subcommand = args[i]
  if (subcommand === undefined || !BUILTINS.has(subcommand)) return undefined
  const rest = args.slice(i + 1)
  const runs = (arg: string) =>
    RUNS_ANYWHERE.some((option) => arg === option || arg.startsWith(`${option}=`)) ||
    (RUNS_SHORT[subcommand] ?? []).some(
      (option) => arg === option || (option.startsWith('-') && arg.startsWith(option)),
    )
  if (rest.some(runs)) return undefined
  return allowing(['git', subcommand])
}
