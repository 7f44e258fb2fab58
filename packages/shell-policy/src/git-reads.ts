// git as a reader: `git [--no-pager] [-C DIR] <status|diff|log|show|rev-parse|ls-files|branch>`
// with only the options listed for that subcommand. git takes long options here exactly (an
// abbreviation is asked: git would read `--out` as `--output`). Global options other than
// `--no-pager` and `-C` (`-c`, `--exec-path`, `--git-dir`, `--work-tree`, …) change what runs
// or where, so they are asked; `git branch` only lists; `--output`, `--ext-diff` and
// `--no-index` are never on a list. Options that run a program the config names are left out:
// `status -v` (textconv), `--show-signature` and a `%G…` format (gpg.program). The folder of
// `-C` is a place read, and so is every operand of `diff`, `log`, `show` and `ls-files`: git
// reads one that lies outside the repository as a file (`git diff /etc/passwd /dev/null` falls
// back to `--no-index`), and a revision judged as a path lies in the workspace. Pure.
import { readArgs } from './options'
import type { OptionTable } from './options'
import { pathOf } from './words'
import type { LiteralWord } from './words'
import { names } from './options'

/** What `git log`, `git show` and `git diff` may be given: how to print, what to pick. */
const HISTORY: OptionTable = {
  flags: 'psqwbziRM',
  valued: 'nUSG',
  numeric: true,
  long: names(
    `oneline patch no-patch stat shortstat numstat name-only name-status summary raw graph decorate no-decorate all branches tags remotes reverse no-merges merges first-parent follow abbrev-commit no-abbrev-commit cached staged no-color ignore-space-change ignore-all-space ignore-blank-lines word-diff check relative no-renames find-renames minimal histogram patience exit-code quiet full-index binary no-ext-diff no-textconv left-right cherry-pick date-order topo-order full-diff no-walk source pretty dirstat compact-summary ignore-cr-at-eol merge-base regexp-ignore-case all-match invert-grep fixed-strings basic-regexp extended-regexp perl-regexp decorate log-size parents children boundary simplify-by-decoration no-prefix`,
  ),
  longValued: names(
    `format pretty date max-count skip since after until before author committer grep unified diff-filter abbrev word-diff color stat decorate relative diff-algorithm inter-hunk-context since-as-filter find-renames min-parents max-parents dirstat`,
  ),
}

const SUBCOMMANDS: Readonly<Record<string, OptionTable>> = {
  log: HISTORY,
  show: HISTORY,
  diff: HISTORY,
  status: {
    flags: 'sbuz',
    long: names(
      `short branch long porcelain ignored show-stash no-renames ahead-behind no-ahead-behind renames`,
    ),
    longValued: ['untracked-files', 'porcelain', 'ignored', 'column', 'ignore-submodules'],
  },
  'rev-parse': {
    flags: 'q',
    long: names(
      `show-toplevel show-prefix show-cdup git-dir git-common-dir absolute-git-dir is-inside-work-tree is-inside-git-dir is-bare-repository verify quiet symbolic symbolic-full-name abbrev-ref short all branches tags show-superproject-working-tree`,
    ),
    longValued: ['short', 'abbrev-ref'],
  },
  'ls-files': {
    flags: 'cdmoiskutvfz',
    valued: 'x',
    long: names(
      `cached deleted modified others ignored stage killed unmerged exclude-standard full-name error-unmatch directory no-empty-directory eol deduplicate recurse-submodules`,
    ),
    longValued: ['exclude', 'format', 'abbrev'],
  },
  // Listing only: any operand would create, rename or delete a branch.
  branch: {
    flags: 'arvl',
    long: names(
      `all remotes verbose list show-current no-color merged no-merged contains no-contains`,
    ),
    longValued: ['color', 'sort', 'format', 'points-at'],
  },
}

/** The subcommands whose operands git may read as files. */
const OPERAND_READERS = new Set(['diff', 'log', 'show', 'ls-files'])
/** The subcommands that print diffs: they run with `--no-ext-diff --no-textconv` (./git-guard). */
export const DIFF_PRINTERS = new Set(['diff', 'log', 'show'])
/** A format that asks for a signature check, which runs `gpg.program`. */
const SIGNATURE_FORMAT = /%G|%\(signature/

export interface GitRead {
  /** The subcommand, and where its word stands among the words. */
  subcommand: string
  at: number
  /** The folder each `-C` names, as seen from the workspace (the last one is where git runs). */
  folders: string[]
  /** The places read: the folders and the operands git may read as files. */
  files: string[]
}

/** What a git command reads, or `undefined` when it is not a read git knows. */
export function gitReads(words: readonly LiteralWord[]): GitRead | undefined {
  const folders: string[] = []
  let i = 0
  for (; i < words.length; i++) {
    const word = (words[i] as LiteralWord).text
    if (word === '--no-pager') continue
    if (word !== '-C') break
    const folder = words[++i]
    if (folder === undefined || folder.glob >= 0) return undefined
    folders.push(folder.text)
  }
  const subcommand = words[i]?.text
  if (subcommand === undefined || !Object.hasOwn(SUBCOMMANDS, subcommand)) return undefined
  const rest = words.slice(i + 1)
  if (rest.some((word) => SIGNATURE_FORMAT.test(word.text))) return undefined
  const read = readArgs(SUBCOMMANDS[subcommand] as OptionTable, rest)
  if (read === undefined) return undefined
  if (subcommand === 'branch' && read.operands.length > 0) return undefined
  const operands = OPERAND_READERS.has(subcommand) ? read.operands.map(pathOf) : []
  const places = folders.map((_, n) => folders.slice(0, n + 1).reduce(under))
  const base = places.at(-1)
  const files = operands.map((path) => (base === undefined ? path : under(base, path)))
  return { subcommand, at: i, folders: places, files: [...places, ...files] }
}

/** `path` as seen from `folder` (a later `-C`, an operand): kept as written, not normalised. */
function under(folder: string, path: string): string {
  return path.startsWith('/') ? path : `${folder.replace(/\/+$/, '')}/${path}`
}
