// One language server process: started in a process group of its own (so ending it ends what it
// started: tsserver, a type checker's workers), its stdin and stdout carrying LSP frames through
// vscode-jsonrpc, its stderr kept (the tail only) to say why it died. Every group still alive
// is killed when the agent exits. Cordis-free.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import {
  StreamMessageReader,
  StreamMessageWriter,
  createMessageConnection,
} from 'vscode-jsonrpc/node'
import type { MessageConnection } from 'vscode-jsonrpc/node'

/** How much of a server's stderr is kept. */
const STDERR_TAIL = 2000

export interface ServerProcessOptions {
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  /** Milliseconds between SIGTERM and SIGKILL when the group is ended. */
  killGraceMs: number
}

/** Process groups started here and not yet gone. */
const liveGroups = new Set<number>()
let exitHookInstalled = false

export class ServerProcess {
  readonly connection: MessageConnection
  /** Settles once the process exited (or could not start): its code, or signal, and stderr's tail. */
  readonly exited: Promise<{ code: number | null; signal: string | null; error?: string }>
  private stderr = ''
  private readonly child: ChildProcess
  private readonly killGraceMs: number
  constructor(argv: readonly string[], options: ServerProcessOptions) {
    const [file, ...args] = argv
    this.child = spawn(file ?? '', args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const { child } = this
    this.exited = new Promise((resolve) => {
      child.on('error', (error) => resolve({ code: null, signal: null, error: error.message }))
      child.on('exit', (code, signal) => resolve({ code, signal }))
    })
    const pid = child.pid
    if (pid !== undefined) {
      installExitHook()
      liveGroups.add(pid)
      void this.exited.then(() => liveGroups.delete(pid))
    }
    child.stderr?.setEncoding('utf8')
    child.stderr?.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_TAIL)
    })
    // A server that dies mid-write: the pipe errors are its exit, reported there.
    child.stdin?.on('error', () => {})
    this.connection = createMessageConnection(
      new StreamMessageReader(child.stdout!),
      new StreamMessageWriter(child.stdin!),
    )
    this.killGraceMs = options.killGraceMs
    // Requests still waiting on a server that is gone are failed now, not at their deadline.
    void this.exited.then(() => this.connection.dispose())
  }

  /** The last line the server wrote to stderr, for a notice. */
  lastError(): string {
    const lines = this.stderr.trim().split('\n')
    return lines[lines.length - 1] ?? ''
  }

  /** Ends the whole group: SIGTERM, then SIGKILL after the grace. Resolves once the leader exited. */
  async kill(): Promise<void> {
    const pid = this.child.pid
    this.connection.dispose()
    if (pid === undefined || !liveGroups.has(pid)) return
    signalGroup(pid, 'SIGTERM')
    const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), this.killGraceMs)
    await this.exited
    clearTimeout(timer)
    // Members the leader left behind end with it.
    signalGroup(pid, 'SIGKILL')
    liveGroups.delete(pid)
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.on('exit', () => {
    for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL')
  })
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // ESRCH: the group is gone already.
  }
}
