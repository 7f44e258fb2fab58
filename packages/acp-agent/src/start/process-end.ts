// How the bin ends. An editor ends its agent by closing the agent's stdin, by closing its pipes
// or dying with them (stdin ends, stdout breaks), or with a signal (SIGTERM; SIGINT and SIGHUP
// from a terminal). Each of these ends the process: the stack is released (turns cancelled,
// sessions' locks given back, MCP servers and commands ended), and whatever is left when the
// deadline passes is cut short by exiting anyway, so the agent is gone within the deadline
// wherever it was (mid-stream, mid-command, mid-MCP call). The exit hooks of the packages
// (process groups killed, locks removed) run on that exit too. Not the log (./stderr-log).

/** What ends the process: `stdin` (end, close, error), `stdout` (error: EPIPE) and signals. */
export interface ProcessEndSources {
  stdin: { on(event: 'end' | 'close' | 'error', listener: () => void): unknown }
  stdout: { on(event: 'error', listener: () => void): unknown }
  signals: { on(signal: NodeJS.Signals, listener: () => void): unknown }
}

export interface ProcessEndOptions {
  /** Releases what the process holds (the stack's dispose). */
  release(): Promise<void>
  /** Writes what still waits for stdout. */
  flush(): void
  /** Ends the process (`process.exit`). */
  exit(code: number): void
  /** The longest the release may take, in ms, before the process exits without it. */
  deadlineMs: number
}

/** The signals an editor or a terminal ends the agent with. */
export const END_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP']

/** The end of the process, once, however many sources report it. */
export class ProcessEnd {
  private ending: Promise<void> | undefined

  constructor(private readonly options: ProcessEndOptions) {}

  /** Ends the process when any of `sources` says the editor is gone or asks it to stop. */
  watch(sources: ProcessEndSources): void {
    sources.stdin.on('end', () => void this.end())
    sources.stdin.on('close', () => void this.end())
    sources.stdin.on('error', () => void this.end())
    sources.stdout.on('error', () => void this.end())
    for (const signal of END_SIGNALS) sources.signals.on(signal, () => void this.end())
  }

  /** Releases the stack and exits 0; past the deadline, exits without waiting for the rest. */
  end(): Promise<void> {
    this.ending ??= this.run()
    return this.ending
  }

  private async run(): Promise<void> {
    const { options } = this
    // Not unref'd: the exit must come even when the release left nothing else to wait for.
    const deadline = setTimeout(() => options.exit(0), options.deadlineMs)
    try {
      await options.release()
    } catch {
      // The process ends either way; a plugin that failed to unload has nothing left to do.
    }
    clearTimeout(deadline)
    options.flush()
    options.exit(0)
  }
}
