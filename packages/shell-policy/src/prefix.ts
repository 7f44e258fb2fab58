// What "always allow" remembers of a command that is asked: a key and the words a person reads
// in the option (`git add …`). The program alone for most; with its subcommand for the
// programs named by one (`git add`, `npm run build`, `cargo test`); with its script or module
// for interpreters (`python3 -m pytest`, `node scripts/build.js`). A program that runs other
// programs by its arguments (`env`, `xargs`, `sudo`, `timeout`, `bash -c`, `find`, `sed`, …),
// options that change what runs or where (git's `-c`, `--exec-path`, `--git-dir`,
// `--work-tree`, `-C` to elsewhere, an alias; npm's `--script-shell`; make's `-f`), variable
// assignments before a command (`GIT_DIR=… git add`), and any word computed at run time are
// remembered as nothing less than the exact command: `undefined` here. Pure.
import { allowing } from './allow-key'
import type { CommandAllow } from './allow-key'
import { gitAllow } from './git-allow'
import type { LiteralWord } from './words'
import { names } from './options'

/** Programs whose arguments name another program to run: only their exact command is remembered. */
const WRAPPERS = new Set(
  names(
    `env xargs timeout nice nohup sudo doas su exec eval command builtin time watch strace ltrace gdb valgrind parallel flock setsid stdbuf chroot unshare nsenter ionice taskset script ssh busybox find awk gawk mawk nawk sed source . trap bwrap`,
  ),
)
/** Interpreters: remembered with their module (`-m pytest`) or script, never by name alone. */
const INTERPRETERS = new Set(
  names(
    `python python3 python2 node nodejs ruby perl php bash sh zsh dash ksh fish lua Rscript tsx ts-node osascript pwsh`,
  ),
)
/** Package runners: remembered with the package they run (`npx vitest`). */
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx'])
/** Programs whose first word names what they do (`cargo test`). */
const WITH_SUBCOMMANDS = new Set(
  names(
    `npm pnpm yarn cargo go docker kubectl make uv poetry pip pip3 bundle gem rake mix dotnet gradle mvn composer brew deno bun rustup helm terraform apt apt-get cmake just`,
  ),
)
/** Of those, subcommands followed by the name of what they run (`npm run build`). */
const NAMED_RUNS = new Set(['run', 'exec', 'dlx', 'x', 'task'])
/** Subcommands that run code given inline: only their exact command is remembered. */
const INLINE_CODE = new Set(['deno eval', 'bun eval', 'node eval', 'uv tool', 'pnpm dlx'])
/** Options that change what a program runs, or where it looks for what to run. */
const CHANGES_WHAT_RUNS: Readonly<Record<string, readonly string[]>> = {
  npm: names(`--script-shell --node-options --userconfig --globalconfig --prefix -c --call -C`),
  pnpm: names(`--script-shell --node-options --config -C --dir --userconfig`),
  yarn: ['--cwd', '--use-yarnrc', '--script-shell'],
  cargo: ['--config', '-Z', '--manifest-path', '-C'],
  go: ['-exec', '-toolexec', '-C', '-modfile', '-overlay'],
  make: names(`-f --file --makefile -C --directory --eval -E -I --include-dir`),
  docker: ['-H', '--host', '--context', '--config', '-c'],
  kubectl: ['--kubeconfig', '--context', '--server', '-s', '--exec-command'],
  deno: ['--config', '-c', '--import-map', '--eval'],
  bun: names(`--config -c --preload -r --eval -e`),
}

/** What "always allow" remembers of `name` run with `words`; `undefined`: the exact command only. */
export function allowOf(
  name: string,
  words: readonly (LiteralWord | undefined)[],
  assigns: boolean,
): CommandAllow | undefined {
  if (assigns || words.some((word) => word === undefined)) return undefined
  const args = (words as readonly LiteralWord[]).map((word) => word.text)
  if (WRAPPERS.has(name)) return undefined
  if (name === 'git') return gitAllow(args)
  if (INTERPRETERS.has(name)) return interpreterAllow(name, args)
  if (PACKAGE_RUNNERS.has(name)) return named([name], args)
  if (WITH_SUBCOMMANDS.has(name)) return subcommandAllow(name, args)
  return allowing([name])
}

/** `python3 -m pytest`, `node build.js`; `-c`, `-e` or any other option first: exact only. */
function interpreterAllow(name: string, args: readonly string[]): CommandAllow | undefined {
  const [first, second] = args
  if (first === '-m' && second !== undefined && !second.startsWith('-')) {
    return allowing([name, '-m', second])
  }
  if (first === undefined || first.startsWith('-') || first.startsWith('+')) return undefined
  return allowing([name, first])
}

/**
 * The program and what it runs, named by the next word (`npx vitest`, `uv run pytest`); when
 * that is itself an interpreter or a wrapper, by its own rule (`uv run python -m pytest`).
 */
function named(lead: readonly string[], args: readonly string[]): CommandAllow | undefined {
  const [first, ...rest] = args
  if (first === undefined || first.startsWith('-')) return undefined
  if (WRAPPERS.has(first) || first === 'git') return undefined
  if (INTERPRETERS.has(first)) {
    const inner = interpreterAllow(first, rest)
    return inner === undefined ? undefined : allowing([...lead, inner.key])
  }
  return allowing([...lead, first])
}

function subcommandAllow(name: string, args: readonly string[]): CommandAllow | undefined {
  const changers = CHANGES_WHAT_RUNS[name] ?? []
  const changes = args.some((arg) =>
    changers.some(
      (option) =>
        arg === option ||
        arg.startsWith(`${option}=`) ||
        (option.length === 2 && !option.startsWith('--') && arg.startsWith(option)),
    ),
  )
  if (changes) return undefined
  // make's `NAME=value` arguments set variables (SHELL among them).
  if (name === 'make' && args.some((arg) => /^[A-Za-z_][\w]*=/.test(arg))) return undefined
  const [first, ...rest] = args
  if (first === undefined) return allowing([name])
  if (first.startsWith('-') || INLINE_CODE.has(`${name} ${first}`)) return undefined
  if (!NAMED_RUNS.has(first)) return allowing([name, first])
  // `cargo run`, `npm run` alone: this project's own program, or the list of scripts.
  if (rest.length === 0) return allowing([name, first])
  return named([name, first], rest)
}
