// Runs the built `dsh-acp` bin as a child process. `startBin` hands back an ACP stream over the
// child's stdio with a frame recorder on both directions (every line the bin writes to stdout,
// every line the client writes to its stdin), so tests check the frames against the ACP schema.
// `runBin` runs it to exit with stdin closed, for flags and bad invocations.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { Readable, Writable } from 'node:stream'
import * as acp from '@agentclientprotocol/sdk'
import { FrameRecorder } from '@deepseek-ai/dsh-acp-testing'
import type { AcpFrame } from '@deepseek-ai/dsh-acp-testing'
import { BIN } from './build'

/** Where the bins of this test file store their sessions: never the person's own state. */
const STATE_HOME = mkdtempSync(join(tmpdir(), 'dsh-state-'))
/** Their config home: no bin reads or writes the person's stored key. */
const CONFIG_HOME = mkdtempSync(join(tmpdir(), 'dsh-config-'))
process.on('exit', () => {
  for (const dir of [STATE_HOME, CONFIG_HOME]) rmSync(dir, { recursive: true, force: true })
})

/**
 * The environment of the parent without a model key, so no test reaches a real model, and
 * with its own state and config homes, so no test stores sessions in the person's or finds
 * the person's stored key.
 */
export function envWithoutKey(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_STATE_HOME: STATE_HOME,
    XDG_CONFIG_HOME: CONFIG_HOME,
  }
  delete env.DEEPSEEK_API_KEY
  delete env.DSH_API_KEY
  delete env.OPENAI_API_KEY
  return env
}

/**
 * A scripted model of one answer, for bins whose tests open or load sessions and send no prompt
 * that matters: no key, no network (DeepSeek's server, the default, opens no session without
 * a key).
 */
export const QUIET_MODEL = [
  '--script',
  fileURLToPath(new URL('../fixtures/quiet-script.json', import.meta.url)),
]

export interface BinExit {
  code: number | null
  stdout: string
  stderr: string
}

export interface BinSession {
  child: ChildProcessWithoutNullStreams
  stream: acp.Stream
  /** Everything the bin wrote to stdout so far. */
  agentText(): string
  stderr(): string
  /** Every line either side wrote, responses labelled with their request's method. */
  frames: AcpFrame[]
  exited: Promise<number | null>
}

/** `bin`: another copy of the built bin (default the package's dist/bin.cjs). */
export function startBin(
  args: string[],
  cwd: string,
  env = envWithoutKey(),
  bin = BIN,
): BinSession {
  return attach(spawn(process.execPath, [bin, ...args], { cwd, env }))
}

/** The installed command (npm's link to the start) run as an editor runs it. */
export function startCommand(
  command: string,
  args: string[],
  cwd: string,
  env = envWithoutKey(),
): BinSession {
  return attach(spawn(command, args, { cwd, env }))
}

function attach(child: ChildProcessWithoutNullStreams): BinSession {
  const recorder = new FrameRecorder()
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text))
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve))

  const [toClient, toTap] = (Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>).tee()
  void toTap.pipeTo(
    new WritableStream<Uint8Array>({ write: (chunk) => recorder.tap('agent', chunk) }),
  )

  const sink = (Writable.toWeb(child.stdin) as WritableStream<Uint8Array>).getWriter()
  const toAgent = new WritableStream<Uint8Array>({
    write: (chunk) => {
      recorder.tap('client', chunk)
      return sink.write(chunk)
    },
    close: () => sink.close(),
    abort: (reason) => sink.abort(reason),
  })

  return {
    child,
    stream: acp.ndJsonStream(toAgent, toClient),
    agentText: () => recorder.text('agent'),
    stderr: () => stderr,
    frames: recorder.frames,
    exited,
  }
}

export function runBin(args: string[], cwd: string): Promise<BinExit> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: envWithoutKey() })
  const out = { stdout: '', stderr: '' }
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out.stdout += text))
  child.stderr.setEncoding('utf8').on('data', (text: string) => (out.stderr += text))
  child.stdin.end()
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, ...out })))
}
