// Child: one `write` of `bytes` of text through the `dsh-acp` bin over real stdio (scripted
// model, `auto-edit`, sessions stored in a temp dir), creating the file. Four moments, on this
// process's clock:
// - the call: the agent's `tool/call` line lands in the session log (the store writes each
//   event as it is logged; this process watches the file);
// - the card: the `tool_call` frame of the call arrives on the bin's stdout;
// - the rename: the file appears in the workspace (watched);
// - the completed update arrives.
// A minimal ndjson client drives the bin (no validation), so what is timed is the bin's.
// Args: { bytes }. Reports { callToCard, renameToDone, cardBytes, frameOrder }.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, watch, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { buildText, tempDir } from '../lib/data.mjs'
import { childArgs, report } from '../lib/measure.mjs'

const BIN = fileURLToPath(new URL('../../packages/acp-agent/dist/bin.cjs', import.meta.url))
const { bytes } = childArgs()

const temp = tempDir('big-write')
const workspace = join(temp.dir, 'workspace')
const sessions = join(temp.dir, 'sessions')
mkdirSync(workspace)
mkdirSync(sessions)
const target = join(workspace, 'big.txt')
const script = join(temp.dir, 'script.json')
const write = {
  id: 'w1',
  name: 'write',
  arguments: { file_path: 'big.txt', content: buildText(bytes) },
}
writeFileSync(script, JSON.stringify({ turns: [{ toolCalls: [write] }, { text: 'Done.' }] }))

const env = { ...process.env }
delete env.DEEPSEEK_API_KEY
const bin = spawn(
  process.execPath,
  [BIN, '--script', script, '--mode', 'auto-edit', '--sessions', sessions],
  { cwd: workspace, env, stdio: ['pipe', 'pipe', 'pipe'] },
)
let stderr = ''
bin.stderr.setEncoding('utf8').on('data', (text) => (stderr += text))
const exited = new Promise((resolve) => bin.on('close', resolve))

const at = {}
const watchers = [
  watch(sessions, () => {
    if (at.call !== undefined) return
    for (const name of safeList(sessions)) {
      if (!name.endsWith('.jsonl')) continue
      if (readFileSync(join(sessions, name), 'utf8').includes('"type":"tool/call"')) {
        at.call = performance.now()
      }
    }
  }),
  watch(workspace, () => {
    if (at.rename === undefined && existsSync(target)) at.rename = performance.now()
  }),
]

try {
  const result = await drive()
  bin.stdin.end()
  await exited
  for (const name of ['call', 'card', 'rename', 'done']) {
    if (at[name] === undefined) throw new Error(`never saw the ${name}\n${stderr}`)
  }
  report({
    ...result,
    callToCard: at.card - at.call,
    renameToDone: at.done - at.rename,
    frameOrder: at.card < at.rename ? 'card first' : 'rename first',
  })
} finally {
  for (const watcher of watchers) watcher.close()
  bin.kill()
  temp.remove()
}

function safeList(dir) {
  try {
    return readdirSync(dir)
  } catch {
    // The directory could not be listed just now: the next event lists it again.
    return []
  }
}

/** The minimal client: one prompt, counting the bytes of every frame of the call's card. */
async function drive() {
  const pending = new Map()
  let nextId = 1
  let cardBytes = 0
  const send = (message) => bin.stdin.write(`${JSON.stringify(message)}\n`)
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve, reject })
      send({ jsonrpc: '2.0', id, method, params })
    })
  const onLine = (line) => {
    const message = JSON.parse(line)
    if (message.method === undefined) {
      const waiting = pending.get(message.id)
      pending.delete(message.id)
      if (message.error) waiting?.reject(new Error(JSON.stringify(message.error)))
      else waiting?.resolve(message.result)
      return
    }
    const update = message.params?.update
    if (update?.toolCallId !== 'w1') return
    cardBytes += Buffer.byteLength(line) + 1
    if (update.sessionUpdate === 'tool_call') at.card ??= performance.now()
    if (update.status === 'completed') at.done ??= performance.now()
  }
  let buffered = ''
  bin.stdout.setEncoding('utf8').on('data', (text) => {
    let start = 0
    buffered += text
    for (let newline = buffered.indexOf('\n'); newline !== -1;) {
      const line = buffered.slice(start, newline)
      if (line !== '') onLine(line)
      start = newline + 1
      newline = buffered.indexOf('\n', start)
    }
    buffered = buffered.slice(start)
  })
  await request('initialize', { protocolVersion: 1, clientCapabilities: {} })
  const { sessionId } = await request('session/new', { cwd: workspace, mcpServers: [] })
  const params = { sessionId, prompt: [{ type: 'text', text: 'write the file' }] }
  const response = await request('session/prompt', params)
  if (response.stopReason !== 'end_turn') throw new Error(`stopped: ${response.stopReason}`)
  return { cardBytes }
}
