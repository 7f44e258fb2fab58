// One ripgrep process: spawned with its arguments in a working directory, its stdout handed to
// a consumer chunk by chunk as it arrives (never gathered whole), and ended at once (SIGKILL)
// when the consumer has enough, the call's signal fires or the time limit passes. It settles
// only after the process has exited, so no `rg` outlives the call.
import { spawn } from 'node:child_process'

export interface RipgrepRun {
  bin: string
  args: readonly string[]
  cwd: string
  /** Returns false once it needs nothing more: the process is ended then. */
  onData(chunk: Buffer): boolean
  signal?: AbortSignal
  timeoutMs: number
}

export interface RipgrepExit {
  /** The exit code; `null` when the process was ended by a signal (stopped, aborted, timed out). */
  code: number | null
  /** The first 4 KiB of what it wrote to stderr. */
  stderr: string
  /** The consumer had enough and the rest was not read. */
  stopped: boolean
  timedOut: boolean
  aborted: boolean
}

const STDERR_KEPT = 4096

export function runRipgrep(run: RipgrepRun): Promise<RipgrepExit> {
  return new Promise((resolve, reject) => {
    const state = { stopped: false, timedOut: false, aborted: false }
    let stderr = ''
    const child = spawn(run.bin, run.args, {
      cwd: run.cwd,
      // No stdin: with no path given, ripgrep searches its working directory, never a pipe.
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    })
    const end = () => {
      child.stdout.removeAllListeners('data')
      child.stdout.destroy()
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
    const onAbort = () => {
      state.aborted = true
      end()
    }
    const timer = setTimeout(() => {
      state.timedOut = true
      end()
    }, run.timeoutMs)
    run.signal?.addEventListener('abort', onAbort, { once: true })
    if (run.signal?.aborted) onAbort()
    child.stdout.on('data', (chunk: Buffer) => {
      if (state.stopped || state.aborted || state.timedOut) return
      if (!run.onData(chunk)) {
        state.stopped = true
        end()
      }
    })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (text: string) => {
      if (stderr.length < STDERR_KEPT) stderr += text.slice(0, STDERR_KEPT - stderr.length)
    })
    child.on('error', (error) => {
      clearTimeout(timer)
      run.signal?.removeEventListener('abort', onAbort)
      reject(error)
    })
    // 'close': the process exited and its pipes are closed; nothing more will arrive.
    child.on('close', (code) => {
      clearTimeout(timer)
      run.signal?.removeEventListener('abort', onAbort)
      resolve({ code, stderr, ...state })
    })
  })
}
