// git as a reader: `git [--no-pager] [-C DIR] <status|diff|log|show|rev-parse|ls-files|branch>`
// with only the options listed for that subcommand. git takes long options here exactly (an
// abbreviation is asked: git would read `--out` as `--output`). Global options other than
// `--no-pager` and `-C` (`-c`, `--exec-path`, `--git-dir`, `--work-tree`, …) change what runs
// or where, so they are asked; `git branch` only lists; `--output`, `--ext-diff` and
// `--no-index` are never on a list. The folder of `-C` is a place read. Pure.
import { readArgs } from './options'
import type { OptionTable } from './options'
import type { LiteralWord } from './words'
import { names } from './options'

/** What `git log`, `git show` and `git diff` may be given: how to print, what to pick. */
const HISTORY: OptionTable = {
  flags: 'psqwbziRM',
  valued: 'nUSG',
  numeric: true,
  long: names(
    `oneline patch no-patch stat shortstat numstat name-only name-status summary raw graph decorate no-decorate all branches tags remotes reverse no-merges merges first-parent follow abbrev-commit no-abbrev-commit cached staged no-color ignore-space-change ignore-all-space ignore-blank-lines word-diff check relative no-renames find-renames minimal histogram patience exit-code quiet full-index binary no-ext-diff no-textconv left-right cherry-pick date-order topo-order full-diff no-walk source pretty dirstat compact-summary ignore-cr-at-eol merge-base show-signature regexp-ignore-case all-match invert-grep fixed-strings basic-regexp extended-regexp perl-regexp decorate log-size parents children boundary simplify-by-decoration no-prefix`,
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
    flags: 'sbuvz',
    long: names(
      `short branch long porcelain ignored show-stash verbose no-renames ahead-behind no-ahead-behind renames`,
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

/** The folder `git -C` reads, or `undefined` when the command is not a read git knows. */
export function gitReads(words: readonly LiteralWord[]): string[] | undefined {
  const places: string[] = []
  let i = 0
  for (; i < words.length; i++) {
    const word = (words[i] as LiteralWord).text
    if (word === '--no-pager') continue
    if (word !== '-C') break
    const folder = words[++i]
    if (folder === undefined || folder.glob >= 0) return undefined
    places.push(folder.text)
  }
  const subcommand = words[i]?.text
  if (subcommand === undefined || !Object.hasOwn(SUBCOMMANDS, subcommand)) return undefined
  const table = SUBCOMMANDS[subcommand] as OptionTable
  const read = readArgs(table, words.slice(i + 1))
  if (read === undefined) return undefined
  if (subcommand === 'branch' && read.operands.length > 0) return undefined
  return places
}
