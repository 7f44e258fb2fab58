#!/usr/bin/env node
// The `dsh-acp` bin: the dsh agent an editor launches, speaking ACP over stdio.
// stdout carries only protocol frames; everything else (console output, Cordis warnings and
// errors, fatal messages) goes to stderr, and a broken stderr is ignored (./stderr-log). It
// ends when stdin ends, stdout breaks or a signal comes, within a deadline (./process-end),
// with no WebAssembly optimisation for the exit to wait on (./exit-ready). The installed command
// starts it from a V8 startup snapshot when it can (./snapshot): the module code below has then
// run already, and `run` is where a process starts.
// Flag parsing lives in cli.ts and model choice in model-choice.ts; this file wires them to
// the process.
import { dirname, join, resolve } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { startupSnapshot } from 'node:v8'
import { FileSessionStore, defaultSessionsDir } from '@deepseek-ai/dsh-session-store'
import { Context, Logger } from 'cordis'
import { config as zodConfig } from 'zod'
import { parseCli, USAGE } from './cli'
import { chooseModel } from './model-choice'
import { chooseWeb } from './web-choice'
import { readVersion } from './version'
import { capLineLength, oversizedLineAnswer } from './line-cap'
import { ProcessEnd } from './process-end'
import { keepExitPrompt } from './exit-ready'
import {
  LAUNCHER_COMMAND_VARIABLE,
  LAUNCHER_NODE_VARIABLE,
  makeSnapshot,
  makeSnapshotLater,
  snapshotPlaces,
} from './snapshot'
import type { SnapshotTarget } from './snapshot'
import { StderrLog } from './stderr-log'
import { stdioStream } from './stdio-stream'
import type { StdioStream } from './stdio-stream'
import { startDsh } from './index'
import type { Dsh } from './index'
import { zedSettings } from './zed-settings'
import type { ZedSettingsInput } from './zed-settings'

/** The longest incoming frame, in bytes: as large as the SDK's default. */
const MAX_LINE_BYTES = 32 * 1024 * 1024

/** The longest the stack may take to unload once the process is to end, in ms. */
const END_DEADLINE_MS = 1000

/** The bundle (dist/dsh-acp.cjs), which dist/bin-modules.js sits beside as well. */
const BUNDLE = join(dirname(fileURLToPath(import.meta.url)), 'dsh-acp.cjs')

let log: StderrLog
// Under `--build-snapshot` (./snapshot) the module code only runs: the program starts when a
// process starts from the snapshot.
if (startupSnapshot.isBuildingSnapshot())
  startupSnapshot.setDeserializeMainFunction(() => run(true))
else run(false)

function run(fromSnapshot: boolean): void {
  // zod compiles a parser per object schema with `new Function` at its first parse, which a
  // start pays for every plugin's options and tool; interpreted, a parse costs microseconds.
  zodConfig({ jitless: true })
  log = new StderrLog()
  log.takeConsole()
  // The launcher's word for which Node it started and as what command; commands the agent runs
  // do not inherit it.
  const launcherNode = process.env[LAUNCHER_NODE_VARIABLE]
  const command = process.env[LAUNCHER_COMMAND_VARIABLE]
  delete process.env[LAUNCHER_NODE_VARIABLE]
  delete process.env[LAUNCHER_COMMAND_VARIABLE]
  const start: Start = {
    snapshot: { node: launcherNode ?? process.execPath, bundle: BUNDLE },
    wantsSnapshot: !fromSnapshot && launcherNode !== undefined,
    command: command ?? process.argv[1] ?? 'dsh-acp',
    launcher: command !== undefined,
  }
  void main(process.argv.slice(2), start).catch((error: unknown) => {
    log.error('fatal', error)
    process.exit(1)
  })
}

/** How this process started. */
interface Start {
  /** What a startup snapshot for the next starts is made of. */
  snapshot: SnapshotTarget
  /** Started by the launcher without a snapshot: make one in the background. */
  wantsSnapshot: boolean
  /** The command or script the person started (for Zed's settings entry). */
  command: string
  /** Started by the installed command (the launcher). */
  launcher: boolean
}

async function main(argv: string[], start: Start): Promise<void> {
  const command = parseCli(argv)
  switch (command.kind) {
    case 'help':
      process.stdout.write(USAGE)
      return
    case 'version':
      process.stdout.write(`dsh-acp ${readVersion()}\n`)
      return
    case 'zed-settings':
      process.stdout.write(zedSettings(zedSettingsInput(command.flags, start)))
      return
    case 'make-snapshot':
      await makeSnapshotNow(start.snapshot)
      return
    case 'error':
      log.line(`dsh-acp: ${command.message}\nRun dsh-acp --help for usage.`)
      process.exit(2)
  }

  // Everything that can fail on bad input fails here, before a single protocol frame.
  const choice = await chooseModel(command, process.env)
  if (!choice.ok) {
    log.line(`dsh-acp: ${choice.message}`)
    process.exit(1)
  }
  log.line(`dsh-acp: ${choice.description}`)
  const web = chooseWeb(command, process.env)
  if (!web.ok) {
    log.line(`dsh-acp: ${web.message}`)
    process.exit(1)
  }

  // From here on the editor can end the process at any moment, even while the stack loads.
  keepExitPrompt()
  const live: { dsh?: Dsh; stdio?: StdioStream } = {}
  const end = new ProcessEnd({
    release: async () => live.dsh?.dispose(),
    flush: () => live.stdio?.flush(),
    exit: (code) => process.exit(code),
    deadlineMs: END_DEADLINE_MS,
  })
  end.watch({ stdin: process.stdin, stdout: process.stdout, signals: process })
  // The process keeps serving through stray failures: log them and go on.
  process.on('uncaughtException', (error) => log.error('uncaught exception', error))
  process.on('unhandledRejection', (reason) => log.error('unhandled rejection', reason))

  const root = new Context()
  exportLogsToStderr(root)
  const dsh = await startDsh(
    {
      cwd: process.cwd(),
      llm: choice.model,
      ...(command.mode && { mode: command.mode }),
      ...(command.editorTimeoutMs !== undefined && {
        fsAcp: { timeoutMs: command.editorTimeoutMs },
      }),
      ...(command.mcpTimeoutMs !== undefined && { mcp: { callTimeoutMs: command.mcpTimeoutMs } }),
      sandbox: {
        enabled: command.sandbox !== 'off',
        network: command.sandboxNetwork === true,
      },
      ...(command.passEnv !== undefined && { passEnv: command.passEnv }),
      web: web.web,
      store: new FileSessionStore({
        dir: resolve(command.sessions ?? defaultSessionsDir()),
        warn: (problem) => log.line(`dsh-acp: sessions: ${problem}`),
      }),
    },
    root,
  )
  live.dsh = dsh
  if (start.wantsSnapshot) {
    makeSnapshotLater(start.snapshot, snapshotPlaces(BUNDLE, process.env), (problem) =>
      log.line(`dsh-acp: ${problem}`),
    )
  }

  // An oversized incoming line is dropped, its request answered with an error saying the limit
  // (a parse error when its id cannot be read; see line-cap.ts); the SDK's own limit sits above
  // ours so it never ends the connection.
  const input = capLineLength(Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>, {
    maxLineBytes: MAX_LINE_BYTES,
    onDropped: ({ bytes, id }) => {
      log.line(`dsh-acp: dropped an incoming line of ${bytes} bytes (limit ${MAX_LINE_BYTES})`)
      if (id !== undefined) live.stdio?.send(oversizedLineAnswer(id, bytes, MAX_LINE_BYTES))
    },
  })
  const stdio = stdioStream(input, process.stdout, { maxMessageBytes: MAX_LINE_BYTES + 1024 })
  live.stdio = stdio
  const connection = dsh.serve(stdio.stream)
  await connection.closed.catch((error: unknown) => log.error('connection', error))
  await end.end()
}

/** `--make-snapshot`: makes it, says where; or says why not and exits 1. */
async function makeSnapshotNow(target: SnapshotTarget): Promise<void> {
  try {
    const made = await makeSnapshot(target, snapshotPlaces(BUNDLE, process.env))
    process.stdout.write(`dsh-acp: the startup snapshot is ${made}\n`)
  } catch (error) {
    log.line(`dsh-acp: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
}

function zedSettingsInput(flags: string[], start: Start): ZedSettingsInput {
  const keyVariable = ['DSH_API_KEY', 'DEEPSEEK_API_KEY', 'OPENAI_API_KEY'].find(
    (name) => (process.env[name] ?? '') !== '',
  )
  return {
    flags,
    started: start.command,
    launcher: start.launcher,
    execPath: process.execPath,
    ...(keyVariable !== undefined && { keyVariable }),
  }
}

function exportLogsToStderr(root: Context): void {
  const exporter = {
    colors: 0,
    levels: { default: 1 }, // errors and warnings
    export(message: Parameters<typeof Logger.format>[1]): void {
      log.line(`dsh-acp [${message.name}] ${Logger.format(exporter, message)}`)
    },
  }
  root.logger.exporter(exporter)
}
