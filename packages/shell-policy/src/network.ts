// Commands known to need the network: package installs and fetches, git's remote
// subcommands, downloaders. In a sandbox without network they would only wait on DNS and
// retry for minutes, so the `bash` tool does not run them there: it answers at once that the
// command needs the network and how to run it outside the sandbox (`escalate`). A guess from
// the words, made only to fail fast; `--offline` says the command needs none. Pure.
import type { LiteralWord } from './words'
import { names } from './options'

/** Programs that need the network whatever their arguments. */
const ALWAYS = new Set(names(`curl wget ssh scp sftp ftp telnet nc ncat`))
/** Subcommands that fetch, by program. */
const FETCHING: Readonly<Record<string, ReadonlySet<string>>> = {
  npm: new Set(names(`install i ci add update up upgrade publish view info outdated audit`)),
  pnpm: new Set(names(`add install i update up upgrade dlx fetch outdated audit publish`)),
  yarn: new Set(names(`add install upgrade up dlx outdated npm publish`)),
  bun: new Set(['add', 'install', 'i', 'update', 'x']),
  deno: new Set(['install', 'add', 'upgrade']),
  pip: new Set(['install', 'download']),
  pip3: new Set(['install', 'download']),
  uv: new Set(['add', 'sync', 'lock', 'pip', 'tool']),
  poetry: new Set(['add', 'install', 'update', 'lock']),
  cargo: new Set(names(`install fetch update search publish add`)),
  go: new Set(['get', 'install', 'mod']),
  gem: new Set(['install', 'update', 'fetch']),
  bundle: new Set(['install', 'update']),
  composer: new Set(['install', 'require', 'update']),
  git: new Set(['clone', 'fetch', 'pull', 'push', 'ls-remote']),
  docker: new Set(['pull', 'push', 'login']),
  'apt-get': new Set(['install', 'update', 'upgrade']),
  apt: new Set(['install', 'update', 'upgrade']),
  brew: new Set(['install', 'update', 'upgrade']),
}

export function needsNetwork(name: string, words: readonly (LiteralWord | undefined)[]): boolean {
  if (ALWAYS.has(name)) return true
  const args = words.map((word) => word?.text ?? '')
  if (args.includes('--offline')) return false
  // `python3 -m pip install …`
  if (/^python[\d.]*$/.test(name) && args[0] === '-m' && args[1] === 'pip') {
    return FETCHING.pip?.has(args[2] ?? '') === true
  }
  const fetching = Object.hasOwn(FETCHING, name) ? FETCHING[name] : undefined
  if (fetching === undefined) return false
  // `yarn` alone installs; otherwise the first word that is not an option.
  const subcommand = args.find((arg) => !arg.startsWith('-'))
  if (subcommand === undefined) return name === 'yarn'
  return fetching.has(subcommand)
}
