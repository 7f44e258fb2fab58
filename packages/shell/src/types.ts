// Types of the ctx.shell seam: what a command is run with, what a running command is, how it
// ended, and the confinement a caller may ask for. Types only; no process here.

/**
 * What the operating system should let a command touch: write only inside `writable` (real
 * paths), and reach the network or not. A provider says whether it honours such a request
 * (`Shell.confinement`); the plain local provider honours none.
 */
export interface ShellConfinement {
  writable: readonly string[]
  network: boolean
}

/** How far a provider confines a command: writes inside the roots, or writes nowhere. */
export type ShellConfinementLevel = 'workspace' | 'read-only'

export interface ShellRunOptions {
  /** The command line, run by `bash -c`. */
  command: string
  /** Absolute path of an existing directory: where the command runs. */
  cwd: string
  /** Variables added to (or replacing) the provider's environment. */
  env?: Readonly<Record<string, string>>
  /** Ends the command's whole process group, as a timeout does. */
  signal?: AbortSignal
  /** Milliseconds before the process group is ended; none: no limit. */
  timeout?: number
  /** Each piece of output as it arrives, stdout and stderr interleaved, decoded as UTF-8. */
  onOutput?(text: string): void
  /** The confinement asked for; a provider that cannot honour it runs the command unconfined. */
  confine?: ShellConfinement
}

/** How a command ended. */
export interface ShellExit {
  /** The exit status, or `null` when a signal ended the shell. */
  exitCode: number | null
  /** The signal that ended the shell (`SIGTERM`), or `null`. */
  signal: string | null
  /** The timeout ended it. */
  timedOut: boolean
  /** The caller's signal (or a kill) ended it. */
  aborted: boolean
  /** The confinement the command ran under, if any. */
  confined?: ShellConfinementLevel
}

/** A command that was started: its process group runs until it ends or is killed. */
export interface ShellProcess {
  /** The process id of the shell, which leads its own process group. */
  readonly pid: number
  /** Settles once the shell ended and its output was delivered; never rejects. */
  readonly exited: Promise<ShellExit>
  /** Ends the whole process group: SIGTERM, then SIGKILL after a grace period. */
  kill(): void
}

/** A background job as `ShellJobs.read` reports it. */
export interface ShellJobRead {
  /** The output since the previous read. */
  output: string
  /** Characters of that output dropped because the job wrote faster than it was read. */
  dropped: number
  /** `undefined` while the job runs. */
  exit?: ShellExit
}
