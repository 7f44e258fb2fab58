// The stdio transport of an MCP server started in a process group of its own, so what the
// server forks (a helper, a language server, a `sh -c` it runs) ends with it: every signal
// goes to the whole group, the group is killed when the server's own process exits (members it
// left behind have no one to serve), and every group still alive is killed when the agent
// exits. The SDK's StdioClientTransport starts the server in the agent's group, where only the
// server's own pid can be signalled. The framing (one JSON-RPC message a line) is the SDK's
// (`ReadBuffer`, `serializeMessage`). A process that leaves the group (`setsid`) is found
// through /proc as the server's descendant (./process-tree) each time the group is signalled,
// and signalled too. Not the connection (./connection).
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { PassThrough } from 'node:stream'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { descendantsOf, signalProcesses } from './process-tree'
import type { ProcessRef } from './process-tree'
import type { McpSdk } from './sdk'

export interface GroupStdioOptions {
  command: string
  args: string[]
  /** Set over the SDK's minimal inherited environment. */
  env: Record<string, string>
  cwd: string
}

/** The transports of MCP servers started here whose process is not yet gone. */
const liveServers = new Set<GroupStdioTransport>()
let exitHookInstalled = false

/** Sends `signal` to process group `pgid`; false when no process is left in it. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal)
    return true
  } catch {
    // ESRCH: the group is gone.
    return false
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.on('exit', () => {
    for (const server of liveServers) server.signal('SIGKILL')
  })
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  /** The server's stderr, readable from before the start so nothing it prints early is lost. */
  readonly stderr = new PassThrough()
  private child: ChildProcess | undefined
  /** The server's descendants seen so far (those out of its group among them). */
  private readonly started = new Map<number, ProcessRef>()
  private readonly buffer: InstanceType<McpSdk['ReadBuffer']>

  constructor(
    private readonly sdk: McpSdk,
    private readonly options: GroupStdioOptions,
  ) {
    this.buffer = new sdk.ReadBuffer()
  }

  /** The server's pid, which is also its process group's id; null before the start. */
  get pid(): number | null {
    return this.child?.pid ?? null
  }

  /**
   * Sends `signal` to the server's process group and to every descendant of the server seen
   * now or at an earlier signal (a `setsid` one too).
   */
  signal(signal: NodeJS.Signals): void {
    const pid = this.pid
    if (pid === null) return
    this.noteDescendants()
    signalGroup(pid, signal)
    signalProcesses(this.started.values(), signal)
  }

  /** Remembers the server's descendants now, for the signals that end them later. */
  noteDescendants(): void {
    if (this.pid !== null) for (const ref of descendantsOf(this.pid)) this.started.set(ref.pid, ref)
  }

  start(): Promise<void> {
    const { command, args, env, cwd } = this.options
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        env: { ...this.sdk.getDefaultEnvironment(), ...env },
        cwd,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      })
      this.child = child
      child.on('error', (error) => {
        reject(error)
        this.onerror?.(error)
      })
      child.on('spawn', () => {
        if (child.pid !== undefined) {
          installExitHook()
          liveServers.add(this)
        }
        resolve()
      })
      child.on('exit', () => {
        const pgid = child.pid
        if (pgid === undefined) return
        // The server is gone; what it left in its group, and the descendants seen at a signal
        // before, go with it (and free the pipes).
        signalGroup(pgid, 'SIGKILL')
        signalProcesses(this.started.values(), 'SIGKILL')
        liveServers.delete(this)
      })
      child.on('close', () => {
        this.child = undefined
        this.onclose?.()
      })
      child.stdin?.on('error', (error) => this.onerror?.(error))
      child.stdout?.on('error', (error) => this.onerror?.(error))
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk))
      child.stderr?.pipe(this.stderr)
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin
      if (!stdin) return reject(new Error('Not connected'))
      if (stdin.write(this.sdk.serializeMessage(message))) resolve()
      else stdin.once('drain', resolve)
    })
  }

  /** Ends the server's stdin; the connection ends the group if it does not exit on its own. */
  async close(): Promise<void> {
    try {
      this.child?.stdin?.end()
    } catch {
      // The pipe is already gone: the server exits or is ended by signal.
    }
    this.buffer.clear()
  }

  private read(chunk: Buffer): void {
    try {
      this.buffer.append(chunk)
    } catch (error) {
      // A line past the SDK's buffer limit: the connection cannot go on.
      this.onerror?.(error as Error)
      this.signal('SIGKILL')
      return
    }
    for (;;) {
      let message: JSONRPCMessage | null
      try {
        message = this.buffer.readMessage()
      } catch (error) {
        this.onerror?.(error as Error)
        continue
      }
      if (message === null) return
      this.onmessage?.(message)
    }
  }
}
