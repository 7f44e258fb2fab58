// The built bin driven line by line, as an editor that can die at any moment: requests written
// as JSON lines (every line either side writes recorded, for the schema check), answers waited
// for by id, and the editor's death as the kernel makes it when an editor is SIGKILLed: all
// three pipes closed at once, or (with a relay, an editor process between the test and the
// agent) the relay SIGKILLed. `isRunning` reads /proc, so a zombie counts as gone.
import { spawn } from 'node:child_process'
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs'
import { FrameRecorder } from '@deepseek-ai/dsh-acp-testing'
import { fileURLToPath } from 'node:url'
import { BIN } from './build'

const RELAY = fileURLToPath(new URL('../fixtures/relay-editor.mjs', import.meta.url))
import { envWithoutKey } from './spawn-bin'

export class RawBin {
  readonly recorder = new FrameRecorder()
  readonly child: ChildProcessWithoutNullStreams
  /** The pid of the process started: the agent's, or the relay's. */
  readonly pid: number
  /** The agent's pid (with a relay, once the relay named it). */
  readonly agentPid: Promise<number>
  /** The exit code (null after a signal), once the process exited. */
  readonly exited: Promise<number | null>
  private nextId = 1

  /** `relay`: start the agent through an editor-like process the test can SIGKILL. */
  constructor(
    args: string[],
    cwd: string,
    options: { env?: NodeJS.ProcessEnv; relay?: boolean } = {},
  ) {
    const argv = [...(options.relay ? [RELAY] : []), BIN, ...args]
    this.child = spawn(process.execPath, argv, { cwd, env: options.env ?? envWithoutKey() })
    this.pid = this.child.pid!
    this.exited = new Promise((resolve) => this.child.on('exit', resolve))
    this.child.stdout.on('data', (chunk: Buffer) => this.recorder.tap('agent', chunk))
    let stderr = ''
    this.agentPid = options.relay
      ? new Promise((resolve) => {
          this.child.stderr.on('data', (chunk: Buffer) => {
            stderr += chunk.toString()
            const named = /^agent (\d+)$/m.exec(stderr)
            if (named) resolve(Number(named[1]))
          })
        })
      : Promise.resolve(this.pid)
    this.child.stderr.on('data', () => undefined)
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) {
      stream.on('error', () => undefined) // the pipes break when the editor "dies"
    }
  }

  /** Sends a request; resolves with its answer (`result` or `error`). */
  async request(
    method: string,
    params: object,
  ): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
    const id = this.nextId++
    this.write({ jsonrpc: '2.0', id, method, params })
    const frame = await this.recorder.waitFor(
      (seen) =>
        seen.from === 'agent' &&
        (seen.message as { id?: unknown } | undefined)?.id === id &&
        seen.method === method,
    )
    return frame.message as { result?: unknown; error?: { code: number; message: string } }
  }

  /** Sends a request without waiting for its answer; its id. */
  send(method: string, params: object): number {
    const id = this.nextId++
    this.write({ jsonrpc: '2.0', id, method, params })
    return id
  }

  /** Resolves once the agent sent an update of this kind. */
  update(kind: string): Promise<unknown> {
    return this.recorder.waitFor((frame) => {
      const message = frame.message as
        { params?: { update?: { sessionUpdate?: string } } } | undefined
      return frame.from === 'agent' && message?.params?.update?.sessionUpdate === kind
    })
  }

  /** The editor dies: stdin, stdout and stderr close together. */
  die(): void {
    this.child.stdin.destroy()
    this.child.stdout.destroy()
    this.child.stderr.destroy()
  }

  private write(message: object): void {
    const line = `${JSON.stringify(message)}\n`
    this.recorder.tap('client', line)
    this.child.stdin.write(line)
  }
}

/** True while process `pid` exists and has not ended (a zombie has). */
export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

/** The pids of the processes working in `dir` (their cwd), from /proc. */
export function processesIn(dir: string): number[] {
  if (!existsSync('/proc/self')) return []
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readlinkSync(`/proc/${name}/cwd`) === dir && isRunning(Number(name))
      } catch {
        return false // gone meanwhile, or not ours to read
      }
    })
    .map(Number)
}
