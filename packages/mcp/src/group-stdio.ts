// The stdio transport of an MCP server started in a process group of its own, so what the
// server forks (a helper, a language server, a `sh -c` it runs) ends with it: every signal
// goes to the whole group, the group is killed when the server's own process exits (members it
// left behind have no one to serve), and every group still alive is killed when the agent
// exits. The SDK's StdioClientTransport starts the server in the agent's group, where only the
// server's own pid can be signalled. The framing (one JSON-RPC message a line) is the SDK's
// (`ReadBuffer`, `serializeMessage`). A process that leaves the group itself (`setsid`) is out
// of reach: only a process-id namespace would hold it. Not the connection (./connection).
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { PassThrough } from 'node:stream'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { McpSdk } from './sdk'

export interface GroupStdioOptions {
  command: string
  args: string[]
  /** Set over the SDK's minimal inherited environment. */
  env: Record<string, string>
  cwd: string
}

/** Process groups of MCP servers started here and not yet gone. */
const liveGroups = new Set<number>()
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
    for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL')
  })
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  /** The server's stderr, readable from before the start so nothing it prints early is lost. */
  readonly stderr = new PassThrough()
  private child: ChildProcess | undefined
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
          liveGroups.add(child.pid)
        }
        resolve()
      })
      child.on('exit', () => {
        const pgid = child.pid
        if (pgid === undefined) return
        // The server is gone; what it left in its group goes with it (and frees the pipes).
        signalGroup(pgid, 'SIGKILL')
        liveGroups.delete(pgid)
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
      if (this.pid !== null) signalGroup(this.pid, 'SIGKILL')
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
