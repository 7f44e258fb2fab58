#!/usr/bin/env node
// The `dsh-acp` bin: the dsh agent an editor launches, speaking ACP over stdio.
// stdout carries only protocol frames; everything else (console output, Cordis warnings and
// errors, fatal messages) goes to stderr, and a broken stderr is ignored (./start/stderr-log). It
// ends when stdin ends, stdout breaks or a signal comes, within a deadline (./start/process-end),
// with no WebAssembly optimisation for the exit to wait on (./start/exit-ready). The start (./start/start)
// runs it bundled, from a V8 code cache.
// Flag parsing lives in cli.ts and model choice in model-choice.ts; this file wires them to
// the process.
import { dirname, join, resolve } from 'node:path'
import { Readable } from 'node:stream'
import { FileSessionStore, defaultSessionsDir } from '@deepseek-ai/dsh-session-store'
import { Context, Logger } from 'cordis'
import { config as zodConfig } from 'zod'
import { DEFAULT_BASE_URL } from '@deepseek-ai/dsh-llm-openai'
import { parseCli, USAGE } from './cli/cli'
import type { CliCommand } from './cli/cli'
import type { ApiKeySource } from './auth/api-key'
import type { DshApp } from './app-stack'
import { serverSignIn } from './auth/app-auth'
import { credentialsPath } from './auth/credentials'
import { runLogin, runLogout } from './auth/login'
import { chooseModel } from './cli/model-choice'
import { chooseWeb } from './cli/web-choice'
import { readVersion } from './version'
import { capLineLength, oversizedLineAnswer } from './start/line-cap'
import { ProcessEnd } from './start/process-end'
import { keepExitPrompt } from './start/exit-ready'
import { StderrLog } from './start/stderr-log'
import { stdioStream } from './start/stdio-stream'
import type { StdioStream } from './start/stdio-stream'
import { startDsh } from './index'
import type { Dsh } from './index'
import { zedSettings } from './cli/zed-settings'
import type { ZedSettingsInput } from './cli/zed-settings'

/** The longest incoming frame, in bytes: as large as the SDK's default. */
const MAX_LINE_BYTES = 32 * 1024 * 1024

/** The longest the stack may take to unload once the process is to end, in ms. */
const END_DEADLINE_MS = 1000

// zod compiles a parser per object schema with `new Function` at its first parse, which a
// start pays for every plugin's options and tool; interpreted, a parse costs microseconds.
zodConfig({ jitless: true })
const log = new StderrLog()
log.takeConsole()
void main(process.argv.slice(2)).catch((error: unknown) => {
  log.error('fatal', error)
  process.exit(1)
})

async function main(argv: string[]): Promise<void> {
  const command = parseCli(argv)
  switch (command.kind) {
    case 'help':
      process.stdout.write(USAGE)
      return
    case 'version':
      process.stdout.write(`dsh-acp ${readVersion()}\n`)
      return
    case 'zed-settings':
      process.stdout.write(zedSettings(zedSettingsInput(command.flags)))
      return
    case 'login':
    case 'logout':
      return process.exit(await signIn(command.kind, command.baseUrl))
    case 'error':
      log.line(`dsh-acp: ${command.message}\nRun dsh-acp --help for usage.`)
      process.exit(2)
  }
  return serve(command, argv)
}

type ServeCommand = Extract<CliCommand, { kind: 'serve' }>

/** Serves ACP on stdio until the editor ends the connection or the process is told to end. */
async function serve(command: ServeCommand, argv: string[]): Promise<void> {
  const baseUrl = command.llm?.baseUrl
  // A model server's key: the environment's, else the stored one; a script needs none.
  const signedIn =
    command.script === undefined
      ? serverSignIn({
          ...(baseUrl !== undefined && { baseUrl }),
          env: process.env,
          launch: { command: process.execPath, args: [process.argv[1] ?? 'dsh-acp', ...argv] },
          warn: (problem) => log.line(`dsh-acp: ${problem}`),
        })
      : undefined
  const app = await appOf(command, signedIn?.keys)

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
  const dsh = await startDsh(app, root)
  live.dsh = dsh
  const stdio = stdioOf(live)
  live.stdio = stdio
  const auth = signedIn?.auth
  const connection = dsh.serve(stdio.stream, { ...(auth && { auth }) })
  await connection.closed.catch((error: unknown) => log.error('connection', error))
  await end.end()
}

/**
 * The app the flags describe, under the same keys; the model, the web search key and the
 * session store are made here. Everything that can fail on bad input fails here, before a
 * single protocol frame (the process exits saying why).
 */
async function appOf(command: ServeCommand, keys?: ApiKeySource): Promise<DshApp> {
  const { kind: _kind, script, llm, sessions, web: webFlags, ...flags } = command
  const choice = await chooseModel({ script, ...llm }, process.env, keys)
  if (!choice.ok) {
    log.line(`dsh-acp: ${choice.message}`)
    process.exit(1)
  }
  log.line(`dsh-acp: ${choice.description}`)
  const web = chooseWeb(webFlags ?? {}, process.env)
  if (!web.ok) {
    log.line(`dsh-acp: ${web.message}`)
    process.exit(1)
  }
  const sessionsDir = resolve(sessions ?? defaultSessionsDir())
  return {
    ...flags,
    cwd: process.cwd(),
    llm: choice.model,
    web: web.web,
    // Undo's snapshots sit beside the sessions (`<state>/dsh/snapshots`).
    snapshots: join(dirname(sessionsDir), 'snapshots'),
    store: new FileSessionStore({
      dir: sessionsDir,
      warn: (problem) => log.line(`dsh-acp: sessions: ${problem}`),
    }),
  }
}

/**
 * stdio as a stream of frames. An oversized incoming line is dropped, its request answered
 * with an error saying the limit (a parse error when its id cannot be read; see line-cap.ts);
 * the SDK's own limit sits above ours so it never ends the connection.
 */
function stdioOf(live: { stdio?: StdioStream }): StdioStream {
  const input = capLineLength(Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>, {
    maxLineBytes: MAX_LINE_BYTES,
    onDropped: ({ bytes, id }) => {
      log.line(`dsh-acp: dropped an incoming line of ${bytes} bytes (limit ${MAX_LINE_BYTES})`)
      if (id !== undefined) live.stdio?.send(oversizedLineAnswer(id, bytes, MAX_LINE_BYTES))
    },
  })
  return stdioStream(input, process.stdout, { maxMessageBytes: MAX_LINE_BYTES + 1024 })
}

/** `--login` / `--logout` (./auth/login) for the server of `--base-url`: the exit code. */
async function signIn(kind: 'login' | 'logout', baseUrl = DEFAULT_BASE_URL): Promise<number> {
  const options = { baseUrl, file: credentialsPath(process.env), env: process.env }
  if (kind === 'logout') return runLogout({ ...options, out: process.stdout })
  return runLogin({ ...options, input: process.stdin, out: process.stdout, err: process.stderr })
}

function zedSettingsInput(flags: string[]): ZedSettingsInput {
  const keyVariable = ['DSH_API_KEY', 'DEEPSEEK_API_KEY', 'OPENAI_API_KEY'].find(
    (name) => (process.env[name] ?? '') !== '',
  )
  return {
    flags,
    started: process.argv[1] ?? 'dsh-acp',
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
