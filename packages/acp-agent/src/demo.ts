// `npm run demo`: the whole product in one run. Copies the bundled sample workspace to a
// temporary directory, starts the built `dsh-acp` bin as a child process with the bundled
// demo script (no key, no network), drives it with the ACP SDK's own client over the child's
// stdio, prints each card as a person would see it (the edits' diffs, the command and its
// output), then the files as they ended up.
// Exits 0 when the session ran and the files changed as the script intends, else 1.
import { spawn } from 'node:child_process'
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import * as acp from '@agentclientprotocol/sdk'
import { COLOR_STYLE, DemoPrinter, PLAIN_STYLE } from './demo-render'

const PROMPT =
  'Fix the spelling of the greeting in src/greet.ts, add a farewell module, update NOTES.md, and check the result.'

/** The command the script runs, by its call id: the demo fails unless its card completes. */
const COMMAND_CALL = 'count-files'

// Paths relative to this file hold from both src/ and dist/.
const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url))
const BIN = here('../dist/bin.cjs')
const SCRIPT = here('../demo/script.json')
const SAMPLE = here('../demo/workspace')

const useColor = process.stdout.isTTY === true && process.env.NO_COLOR === undefined
const style = useColor ? COLOR_STYLE : PLAIN_STYLE
const print = (lines: string[]): void => {
  for (const line of lines) process.stdout.write(`${line}\n`)
}

async function main(): Promise<number> {
  const workspace = await mkdtemp(join(tmpdir(), 'dsh-demo-'))
  // The demo's session is stored beside it, not among the person's own sessions.
  const sessions = await mkdtemp(join(tmpdir(), 'dsh-demo-sessions-'))
  try {
    await cp(SAMPLE, workspace, { recursive: true })
    print([`dsh demo: workspace ${workspace}`, `prompt: ${PROMPT}`])
    const { stopReason, commandRan } = await runSession(workspace, sessions)
    print(['', `turn ended: ${stopReason}`, '', 'Files as they ended up:'])
    print(await showFiles(workspace))
    const problems = await checkOutcome(workspace, stopReason)
    if (!commandRan) problems.push('the command card did not complete')
    for (const problem of problems) process.stderr.write(`demo: ${problem}\n`)
    return problems.length === 0 ? 0 : 1
  } finally {
    await rm(workspace, { recursive: true, force: true })
    await rm(sessions, { recursive: true, force: true })
  }
}

async function runSession(
  workspace: string,
  sessions: string,
): Promise<{ stopReason: string; commandRan: boolean }> {
  let commandRan = false
  const { child, stderr, exited, stream } = startBin(workspace, sessions)
  const printer = new DemoPrinter(workspace, style)
  try {
    const response = await acp
      .client()
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        const { update } = params
        if (update.sessionUpdate === 'tool_call_update' && update.toolCallId === COMMAND_CALL) {
          commandRan ||= update.status === 'completed'
        }
        print(printer.update(update))
      })
      .onRequest(acp.methods.client.session.requestPermission, async ({ params, agent }) => {
        // The person allows the first change, then lets the agent edit on its own; the
        // command at the end is still asked about (auto-edit asks before commands), and allowed.
        const allow = params.options.find((option) => option.kind === 'allow_once')
        print([...printer.flush(), ...printer.permission(params, allow?.name ?? 'Cancel')])
        if (!allow) return { outcome: { outcome: 'cancelled' } }
        await agent.request(acp.methods.agent.session.setMode, {
          sessionId: params.sessionId,
          modeId: 'auto-edit',
        })
        return { outcome: { outcome: 'selected', optionId: allow.optionId } }
      })
      .connectWith(stream, async (agent) => {
        await agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } },
        })
        const session = await agent.request(acp.methods.agent.session.new, {
          cwd: workspace,
          mcpServers: [],
        })
        return agent.request(acp.methods.agent.session.prompt, {
          sessionId: session.sessionId,
          prompt: [{ type: 'text', text: PROMPT }],
        })
      })
    print(printer.flush())
    return { stopReason: response.stopReason, commandRan }
  } catch (error) {
    process.stderr.write(`demo: the session failed: ${String(error)}\n${stderr.join('')}`)
    throw error
  } finally {
    child.stdin.end()
    const timer = setTimeout(() => child.kill(), 5000)
    const code = await exited
    clearTimeout(timer)
    if (code !== 0) process.stderr.write(`demo: dsh-acp exited with ${code}\n${stderr.join('')}`)
  }
}

/** The bin on the demo's script, without a key from the environment, as an ACP stream. */
function startBin(workspace: string, sessions: string) {
  const env = { ...process.env }
  delete env.DEEPSEEK_API_KEY
  const child = spawn(process.execPath, [BIN, '--script', SCRIPT, '--sessions', sessions], {
    cwd: workspace,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const stderr: string[] = []
  child.stderr.setEncoding('utf8').on('data', (text: string) => stderr.push(text))
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  )
  return { child, stderr, exited, stream }
}

async function showFiles(root: string, dir = ''): Promise<string[]> {
  const lines: string[] = []
  const entries = await readdir(join(root, dir), { withFileTypes: true })
  entries.sort((a, b) => a.name.localeCompare(b.name))
  for (const entry of entries) {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`
    if (entry.isDirectory()) {
      lines.push(...(await showFiles(root, path)))
      continue
    }
    const text = await readFile(join(root, path), 'utf8')
    lines.push('', `--- ${path}`)
    text
      .replace(/\n$/, '')
      .split('\n')
      .forEach((line, index) => lines.push(`${String(index + 1).padStart(4)}  ${line}`))
  }
  return lines
}

// What the demo script sets out to do; a run that did not do it is a failed demo.
async function checkOutcome(workspace: string, stopReason: string): Promise<string[]> {
  const problems: string[] = []
  if (stopReason !== 'end_turn') problems.push(`the turn ended with ${stopReason}, not end_turn`)
  const read = (path: string): Promise<string> =>
    readFile(join(workspace, path), 'utf8').catch(() => '')
  if (!(await read('src/greet.ts')).includes('`Hello, ${name}${mark}`')) {
    problems.push('src/greet.ts was not fixed')
  }
  if (!(await read('src/farewell.ts')).includes('Goodbye')) {
    problems.push('src/farewell.ts was not written')
  }
  if (!(await read('NOTES.md')).includes('- farewell: added')) {
    problems.push('NOTES.md was not updated')
  }
  return problems
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  },
)
