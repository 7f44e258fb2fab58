// Which simple commands only read: the table a command's every part must pass to run unasked,
// and the prefix "always allow" remembers for a part that does not. Pure: words in, answers out.

/** Programs that only read, whatever their arguments (redirections are judged elsewhere). */
const READERS = new Set(['ls', 'pwd', 'cat', 'head', 'tail', 'wc', 'file', 'stat', 'which'])
/** Programs that only print or filter, when they write no file of their own. */
const FILTERS = new Set(['echo', 'printf', 'grep', 'rg', 'sort', 'uniq', 'cut', 'tr', 'test', '['])
const FIND_WRITES = new Set([
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-delete',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
])
const GIT_READS = new Set(['status', 'diff', 'log', 'show', 'rev-parse', 'ls-files', 'branch'])
const GIT_BRANCH_LISTING = new Set([
  '-a',
  '--all',
  '-r',
  '--remotes',
  '-v',
  '-vv',
  '--verbose',
  '-l',
  '--list',
  '--show-current',
  '--no-color',
  '--color',
  '--merged',
  '--no-merged',
])
/** Programs whose first word after the options names what they do (`git add`, `npm test`). */
const WITH_SUBCOMMANDS = new Set([
  'git',
  'npm',
  'pnpm',
  'yarn',
  'npx',
  'cargo',
  'go',
  'docker',
  'kubectl',
  'make',
])
/** Of those, the ones whose subcommand names a script to run (`npm run build`). */
const RUNNERS = new Set(['npm', 'pnpm', 'yarn'])
/** Global options of git that take the next word as their value. */
const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace'])

/**
 * True when `name` with `args` only reads. `args` are the words as the shell passes them;
 * `dynamic` is true when any of them is built at run time (a variable), which hides what it is.
 */
export function isReadOnlyCommand(
  name: string,
  args: readonly string[],
  dynamic: boolean,
): boolean {
  if (READERS.has(name)) return true
  if (FILTERS.has(name)) return filterOnlyReads(name, args)
  if (dynamic) return false
  if (name === 'find') return !args.some((arg) => FIND_WRITES.has(arg))
  if (name === 'git') return gitOnlyReads(args)
  return false
}

function filterOnlyReads(name: string, args: readonly string[]): boolean {
  // ripgrep's --pre runs a program on each file; sort -o and uniq's second file write.
  if (name === 'rg') return !args.some((arg) => arg === '--pre' || arg.startsWith('--pre='))
  if (name === 'sort') return !args.some((arg) => /^(-o|--output)/.test(arg))
  if (name === 'uniq') return args.filter((arg) => !arg.startsWith('-')).length <= 1
  return true
}

function gitOnlyReads(args: readonly string[]): boolean {
  const [first, ...rest] = args.filter((arg) => arg !== '--no-pager')
  if (first === undefined || !GIT_READS.has(first)) return false
  if (rest.some((arg) => arg === '--output' || arg.startsWith('--output='))) return false
  if (first === 'branch') return rest.every((arg) => GIT_BRANCH_LISTING.has(arg))
  return true
}

/** What "always allow" remembers of a part: the program, and for some its subcommand. */
export function commandPrefix(name: string, args: readonly string[]): string {
  if (!WITH_SUBCOMMANDS.has(name)) return name
  const words: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg.startsWith('-')) {
      if (name === 'git' && GIT_VALUE_OPTIONS.has(arg)) i++
      continue
    }
    words.push(arg)
    if (!(RUNNERS.has(name) && words.length === 1 && arg === 'run')) break
  }
  return [name, ...words].join(' ')
}
