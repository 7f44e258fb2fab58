// The bin's V8 startup snapshot: a heap image with the bundle (dist/dsh-acp.cjs) already
// evaluated, so a start neither compiles nor runs the program's and its dependencies' module code
// (the ACP SDK's schemas, zod, Cordis). Node loads it with `--snapshot-blob`, which only a
// command line can give, so the installed `dsh-acp` is a shell launcher (./launcher.sh) that
// starts Node from the snapshot when one matches, else runs the plain start (dist/bin.js). A
// snapshot fits exactly one Node binary and one bundle, so it cannot ship in the package: the
// plain start makes one in the background for the next start (`makeSnapshotLater`), or
// `dsh-acp --make-snapshot` makes it at once. It is written beside the bundle or, where the
// install is read-only, in the person's cache folder, with a stamp file naming the Node binary
// (as the launcher found it on PATH) and the install it was made for; the launcher also wants it
// newer than both. Made with a bare environment, so nothing of the person's (a key) is in it.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, setPriority } from 'node:os'
import { dirname, join } from 'node:path'

/** The V8 flags a snapshot is made and run with (V8 refuses a snapshot made under others). */
export const SNAPSHOT_FLAGS = ['--liftoff-only']

/** What the launcher tells the program: the Node binary it started (as found on PATH)… */
export const LAUNCHER_NODE_VARIABLE = 'DSH_ACP_NODE'
/** …and the command it was started as (the `dsh-acp` on PATH, for Zed's settings entry). */
export const LAUNCHER_COMMAND_VARIABLE = 'DSH_ACP_COMMAND'

/** How long after a plain start the background snapshot starts, in ms: off the start's path. */
const LATER_MS = 3000

export interface SnapshotTarget {
  /** The bundle, dist/dsh-acp.cjs. */
  bundle: string
  /** The Node binary to make it with, as the launcher names it (the stamp's first part). */
  node: string
}

/** Where a snapshot is looked for and written, in order; the launcher looks in the same. */
export function snapshotPlaces(bundle: string, env: NodeJS.ProcessEnv): string[] {
  const xdg = env.XDG_CACHE_HOME
  const cache = xdg !== undefined && xdg.startsWith('/') ? xdg : join(homedir(), '.cache')
  return [join(dirname(bundle), 'dsh-acp.blob'), join(cache, 'dsh', 'dsh-acp.blob')]
}

/** The stamp beside a snapshot: which Node binary and which install it fits. */
export function snapshotStamp(target: SnapshotTarget): string {
  return `${target.node}|${dirname(target.bundle)}\n`
}

/**
 * Makes the snapshot in the first place that takes a file; resolves to its path, or rejects
 * saying why none was made. `signal` ends the making (its child is killed, nothing is left).
 */
export async function makeSnapshot(
  target: SnapshotTarget,
  places: string[],
  signal?: AbortSignal,
): Promise<string> {
  const problems: string[] = []
  for (const place of places) {
    const partial = `${place}.${process.pid}`
    try {
      mkdirSync(dirname(place), { recursive: true })
      closeSync(openSync(partial, 'w'))
    } catch (error) {
      problems.push(`${dirname(place)} is not writable (${messageOf(error)})`)
      continue
    }
    // Ended with the process (the agent's exit kills the maker): nothing partial stays behind.
    const removePartial = (): void => {
      rmSync(partial, { force: true })
      rmSync(`${partial}.stamp`, { force: true })
    }
    process.once('exit', removePartial)
    try {
      const entry = join(dirname(target.bundle), 'snapshot-entry.cjs')
      await runNode(
        target,
        [...SNAPSHOT_FLAGS, '--snapshot-blob', partial, '--build-snapshot', entry],
        signal,
      )
      // Tried once before any start relies on it: one that cannot start is never put in place.
      const bin = join(dirname(target.bundle), 'bin.js')
      await runNode(
        target,
        [...SNAPSHOT_FLAGS, '--snapshot-blob', partial, bin, '--version'],
        signal,
      )
      renameSync(partial, place)
      writeFileSync(`${partial}.stamp`, snapshotStamp(target))
      renameSync(`${partial}.stamp`, `${place}.stamp`)
      return place
    } catch (error) {
      removePartial()
      throw error
    } finally {
      process.removeListener('exit', removePartial)
    }
  }
  throw new Error(`no snapshot was made: ${problems.join('; ')}`)
}

/**
 * After a plain start from the launcher: makes the snapshot a few seconds later, at the lowest
 * priority, unless the process ends first (then the child is killed with it). Returns a stop.
 */
export function makeSnapshotLater(
  target: SnapshotTarget,
  places: string[],
  warn: (problem: string) => void,
): () => void {
  const stop = new AbortController()
  const timer = setTimeout(() => {
    makeSnapshot(target, places, stop.signal).catch((error: unknown) => {
      if (!stop.signal.aborted) warn(`the startup snapshot was not made: ${messageOf(error)}`)
    })
  }, LATER_MS)
  timer.unref()
  const end = (): void => {
    clearTimeout(timer)
    stop.abort()
  }
  process.once('exit', end)
  return end
}

/** Runs the Node binary with `args` in the bundle's folder; rejects unless it exits 0. */
function runNode(target: SnapshotTarget, args: string[], signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted()
  // A bare environment: a snapshot keeps whatever the bundle's module code read, and it must
  // hold nothing of the person's. Never the launcher's variable either: this is no start.
  const child: ChildProcess = spawn(target.node, args, {
    cwd: dirname(target.bundle),
    env: {},
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(signal && { signal }),
  })
  lowerPriority(child)
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString()
  })
  return new Promise((done, fail) => {
    child.once('error', fail)
    child.once('exit', (code, exitSignal) => {
      if (code === 0) done()
      else fail(new Error(`${target.node} ended with ${code ?? exitSignal}: ${lastLine(stderr)}`))
    })
  })
}

function lowerPriority(child: ChildProcess): void {
  if (child.pid === undefined) return
  try {
    // A background job: the person's work comes first.
    setPriority(child.pid, 19)
  } catch {
    // not allowed here: it runs at the agent's priority
  }
}

function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('(node:') && !line.startsWith('(Use'))
  return lines.at(-1) ?? 'no message'
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
