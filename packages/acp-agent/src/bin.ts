#!/usr/bin/env node
// The `dsh-acp` bin: the dsh agent an editor launches, speaking ACP over stdio.
// stdout carries only protocol frames; everything else (console output, Cordis warnings and
// errors, fatal messages) goes to stderr. It exits when stdin closes. Flag parsing lives in
// cli.ts and model choice in model-choice.ts; this file wires them to the process.
import { resolve } from 'node:path'
import { Readable } from 'node:stream'
import { FileSessionStore, defaultSessionsDir } from '@deepseek-ai/dsh-session-store'
import { Context, Logger } from 'cordis'
import { parseCli, USAGE } from './cli'
import { chooseModel } from './model-choice'
import { chooseWeb } from './web-choice'
import { readVersion } from './version'
import { capLineLength } from './line-cap'
import { stdioStream } from './stdio-stream'
import { startDsh } from './index'

/** The longest incoming frame, in bytes: as large as the SDK's default. */
const MAX_LINE_BYTES = 32 * 1024 * 1024

routeConsoleToStderr()
void main(process.argv.slice(2)).catch((error: unknown) => {
  logError('fatal', error)
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
    case 'error':
      process.stderr.write(`dsh-acp: ${command.message}\nRun dsh-acp --help for usage.\n`)
      process.exit(2)
  }

  // Everything that can fail on bad input fails here, before a single protocol frame.
  const choice = await chooseModel(command, process.env)
  if (!choice.ok) {
    process.stderr.write(`dsh-acp: ${choice.message}\n`)
    process.exit(1)
  }
  process.stderr.write(`dsh-acp: ${choice.description}\n`)
  const web = chooseWeb(command, process.env)
  if (!web.ok) {
    process.stderr.write(`dsh-acp: ${web.message}\n`)
    process.exit(1)
  }

  const root = new Context()
  exportLogsToStderr(root)
  const dsh = await startDsh(
    {
      cwd: process.cwd(),
      model: choice.model,
      ...(command.mode && { mode: command.mode }),
      ...(command.editorTimeoutMs !== undefined && { editorTimeoutMs: command.editorTimeoutMs }),
      ...(command.mcpTimeoutMs !== undefined && { mcpTimeoutMs: command.mcpTimeoutMs }),
      sandbox: {
        enabled: command.sandbox !== 'off',
        network: command.sandboxNetwork === true,
      },
      web: web.web,
      store: new FileSessionStore({
        dir: resolve(command.sessions ?? defaultSessionsDir()),
        warn: (problem) => process.stderr.write(`dsh-acp: sessions: ${problem}\n`),
      }),
    },
    root,
  )

  // The process keeps serving through stray failures: log them and go on.
  process.on('uncaughtException', (error) => logError('uncaught exception', error))
  process.on('unhandledRejection', (reason) => logError('unhandled rejection', reason))

  // An oversized incoming line is dropped and answered as a parse error (see line-cap.ts);
  // the SDK's own limit sits above ours so it never ends the connection.
  const input = capLineLength(Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>, {
    maxLineBytes: MAX_LINE_BYTES,
    onDropped: (bytes) =>
      process.stderr.write(
        `dsh-acp: dropped an incoming line of ${bytes} bytes (limit ${MAX_LINE_BYTES})\n`,
      ),
  })
  const stdio = stdioStream(input, process.stdout, { maxMessageBytes: MAX_LINE_BYTES + 1024 })
  const connection = dsh.serve(stdio.stream)
  const shutdown = once(async (code: number) => {
    await Promise.race([dsh.dispose(), new Promise((resolve) => setTimeout(resolve, 2000))])
    stdio.flush()
    process.exit(code)
  })
  process.stdin.on('end', () => void shutdown(0))
  process.stdin.on('close', () => void shutdown(0))
  process.stdout.on('error', () => void shutdown(0)) // the client went away (EPIPE)
  process.on('SIGTERM', () => void shutdown(0))
  process.on('SIGINT', () => void shutdown(0))
  await connection.closed.catch((error: unknown) => logError('connection', error))
  await shutdown(0)
}

function once<A extends unknown[]>(
  fn: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  let running: Promise<void> | undefined
  return (...args) => (running ??= fn(...args))
}

function routeConsoleToStderr(): void {
  const toStderr = (...args: unknown[]): void => console.error(...args)
  console.log = toStderr
  console.info = toStderr
  console.debug = toStderr
  console.trace = toStderr
  console.dir = toStderr
  console.table = toStderr
}

function exportLogsToStderr(root: Context): void {
  const exporter = {
    colors: 0,
    levels: { default: 1 }, // errors and warnings
    export(message: Parameters<typeof Logger.format>[1]): void {
      process.stderr.write(`dsh-acp [${message.name}] ${Logger.format(exporter, message)}\n`)
    },
  }
  root.logger.exporter(exporter)
}

function logError(label: string, error: unknown): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error)
  process.stderr.write(`dsh-acp: ${label}: ${text}\n`)
}
