// spawnGroup: one program started in a process group of its own, with stdin at /dev/null, its
// stdout and stderr decoded as UTF-8 (never split inside a character) and handed on as they
// arrive, and every way it can end — exit, signal, timeout, abort, kill — ending the whole
// group: SIGTERM, then SIGKILL after a grace period. A group is also ended when its leader
// exits while members remain (a command's stray background child), and every group still
// alive is killed when this process exits, so no process outlives the agent.
// It takes an argv, not a command line: a provider that wraps the shell in another program
// (a sandbox) reuses it as it is. Cordis-free.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { statSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import type { Readable } from 'node:stream'
import { ShellError } from '@deepseek-ai/dsh-shell'
import { groupAlive } from './group-alive'
import type { ShellExit, ShellProcess } from '@deepseek-ai/dsh-shell'

export interface SpawnGroupOptions {
  /** Absolute path of an existing directory. */
  cwd: string
  /** The whole environment of the program. */
  env: Readonly<Record<string, string>>
  signal?: AbortSignal
  /** Milliseconds before the group is ended; none: no limit. */
  timeout?: number
  onOutput?(text: string): void
  /** Milliseconds between SIGTERM and SIGKILL; default 3000. */
  killGraceMs?: number
  /**
   * A pipe at the program's fd 3, its bytes handed on as they come: a wrapper's report channel
   * (bwrap's `--info-fd 3`). None: the program gets no fd 3.
   */
  onReport?(chunk: Buffer): void
  /**
   * Whether members the leader left behind when it exited still run and must be ended; default
   * `groupAlive` (the kernel, then /proc). A wrapper that knows its members end by themselves
   * answers false, and waits for them itself.
   */
  leftBehind?(pgid: number): boolean
}

/** How long to wait for the pipes to close after SIGKILL before giving up on them. */
const CLOSE_AFTER_KILL_MS = 1000

/**
 * How long an ended group's exit waits for its members to be gone: a member can close its
 * pipes and still be on its way out, and the caller is told the group ended only once it has.
 */
const GONE_WAIT_MS = 1000

/** Process groups started here and not yet known to be gone. */
const liveGroups = new Set<number>()
let exitHookInstalled = false

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.on('exit', () => {
    for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL')
  })
}

/** Sends `signal` to the group; false when the group is gone. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal)
    return true
  } catch {
    // ESRCH: no process is left in the group (EPERM cannot happen for our own children).
    return false
  }
}

export function spawnGroup(argv: readonly string[], options: SpawnGroupOptions): ShellProcess {
  const [file, ...args] = argv
  if (file === undefined) throw new ShellError('SHELL_SPAWN_FAILED', 'No program to run.')
  checkCwd(options.cwd)
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: options.onReport ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
  })
  const pid = child.pid
  if (pid === undefined) {
    child.on('error', () => {
      // Reported below as SHELL_SPAWN_FAILED; the event must be listened to or it throws.
    })
    throw new ShellError('SHELL_SPAWN_FAILED', `Could not start "${file}": it was not found.`)
  }
  installExitHook()
  liveGroups.add(pid)
  return new GroupProcess(pid, child, options)
}

function checkCwd(cwd: string): void {
  let directory = false
  try {
    directory = statSync(cwd).isDirectory()
  } catch {
    // Absent or unreadable: the message below says what to do.
  }
  if (!directory) {
    throw new ShellError(
      'SHELL_BAD_CWD',
      `The working directory "${cwd}" does not exist or is not a directory.`,
    )
  }
}

class GroupProcess implements ShellProcess {
  readonly exited: Promise<ShellExit>
  private settle: (exit: ShellExit) => void = () => {}
  private exitCode: number | null = null
  private exitSignal: string | null = null
  private ending: 'timedOut' | 'aborted' | undefined
  private terminating = false
  private done = false
  private timeoutTimer: NodeJS.Timeout | undefined
  private killTimer: NodeJS.Timeout | undefined
  private closeTimer: NodeJS.Timeout | undefined
  private readonly onAbort = () => this.terminate('aborted')
  private readonly streams: Readable[]

  constructor(
    readonly pid: number,
    child: ChildProcess,
    private readonly options: SpawnGroupOptions,
  ) {
    this.exited = new Promise((resolve) => (this.settle = resolve))
    const { stdout, stderr } = child
    const streams = [stdout, stderr].filter((stream): stream is Readable => stream !== null)
    for (const stream of streams) this.decode(stream)
    const report = child.stdio[3] as Readable | null | undefined
    if (report && options.onReport) {
      report.on('data', options.onReport)
      streams.push(report)
    }
    const leftBehind = options.leftBehind ?? groupAlive
    child.on('exit', (code, signal) => {
      this.exitCode = code
      this.exitSignal = signal
      // The leader is gone; members it left behind (a stray `&`) end with it.
      if (leftBehind(pid)) this.terminate(undefined)
    })
    child.on('close', () => this.finish(streams))
    child.on('error', () => this.finish(streams))
    if (options.timeout !== undefined) {
      this.timeoutTimer = setTimeout(() => this.terminate('timedOut'), options.timeout)
    }
    if (options.signal?.aborted) this.terminate('aborted')
    else options.signal?.addEventListener('abort', this.onAbort, { once: true })
    this.streams = streams
  }

  kill(): void {
    this.terminate('aborted')
  }

  private decode(stream: Readable): void {
    const decoder = new StringDecoder('utf8')
    const onOutput = this.options.onOutput
    stream.on('data', (chunk: Buffer) => {
      const text = decoder.write(chunk)
      if (text.length > 0) onOutput?.(text)
    })
    stream.on('end', () => {
      const rest = decoder.end()
      if (rest.length > 0) onOutput?.(rest)
    })
  }

  private terminate(reason: 'timedOut' | 'aborted' | undefined): void {
    if (!this.done && this.ending === undefined) this.ending = reason
    if (this.terminating || !liveGroups.has(this.pid)) return
    this.terminating = true
    if (!signalGroup(this.pid, 'SIGTERM')) return this.forget()
    // Not unref'd: the group must get its SIGKILL even when nothing else keeps us alive.
    this.killTimer = setTimeout(() => {
      signalGroup(this.pid, 'SIGKILL')
      this.forget()
      // A process that left the group may still hold the pipes: stop waiting for them.
      this.closeTimer = setTimeout(() => this.finish(this.streams), CLOSE_AFTER_KILL_MS)
    }, this.options.killGraceMs ?? 3000)
  }

  private finish(streams: readonly Readable[]): void {
    if (this.done) return
    this.done = true
    this.options.signal?.removeEventListener('abort', this.onAbort)
    clearTimeout(this.timeoutTimer)
    clearTimeout(this.closeTimer)
    for (const stream of streams) stream.destroy()
    // A group still being ended stays known until its SIGKILL has gone out, unless it is gone.
    if (!this.terminating || !groupAlive(this.pid)) {
      clearTimeout(this.killTimer)
      this.forget()
    }
    const exit = {
      exitCode: this.exitCode,
      signal: this.exitSignal,
      timedOut: this.ending === 'timedOut',
      aborted: this.ending === 'aborted',
    }
    if (!this.terminating) return this.settle(exit)
    void untilGroupGone(this.pid, GONE_WAIT_MS).then(() => this.settle(exit))
  }

  private forget(): void {
    liveGroups.delete(this.pid)
  }
}

/** Resolves once no process of group `pgid` is left, or after `limitMs` (a member not reaped). */
async function untilGroupGone(pgid: number, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs
  while (groupAlive(pgid) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
