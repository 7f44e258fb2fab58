// The bin's log: lines on stderr that never hurt the agent. An editor may close the agent's
// stderr, or die with a line on its way: the write then fails (EPIPE), and that failure must
// neither stop the agent nor reach the uncaught-exception handler, which logs to stderr too and
// would raise again, forever. So stderr's errors are listened to here, and after the first
// one the log is silent for the rest of the process. `console` output comes here as well.
import { format } from 'node:util'

/** What the log needs of stderr (a Node writable). */
export interface LogSink {
  write(text: string): boolean
  on(event: 'error', listener: (error: Error) => void): unknown
  readonly destroyed?: boolean
}

export class StderrLog {
  private broken = false

  constructor(private readonly sink: LogSink = process.stderr) {
    sink.on('error', () => {
      // stderr went away (the editor closed it or died): nobody reads the log any more.
      this.broken = true
    })
  }

  /** True once a write to stderr failed: nothing is written after. */
  get isBroken(): boolean {
    return this.broken || this.sink.destroyed === true
  }

  /** Writes one line (a newline is added). */
  line(text: string): void {
    if (this.isBroken) return
    try {
      this.sink.write(`${text}\n`)
    } catch {
      // A stream that throws instead of emitting 'error': as broken as one that emits it.
      this.broken = true
    }
  }

  /** `dsh-acp: <label>: <the error's stack or message>`. */
  error(label: string, error: unknown): void {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error)
    this.line(`dsh-acp: ${label}: ${text}`)
  }

  /** Sends every `console` method here, so nothing but protocol frames reaches stdout. */
  takeConsole(): void {
    const toLog = (...args: unknown[]): void => this.line(format(...args))
    console.log = toLog
    console.info = toLog
    console.debug = toLog
    console.trace = toLog
    console.dir = toLog
    console.table = toLog
    console.warn = toLog
    console.error = toLog
  }
}
