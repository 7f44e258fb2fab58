// Child: session/new through the `dsh-acp` bin over real stdio, with one stdio MCP server (the
// test server of packages/mcp) and with none, alternately in one bin, each timed from the
// request to its response and then closed (session/close, which ends the server). A minimal
// ndjson client drives the bin; the servers connect after the response, so what is timed is
// what a person waits for before the session opens. Args: { sessions, warmup }.
// Reports { with: ms[], without: ms[] }.
import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { tempDir } from '../lib/data.mjs'
import { childArgs, report } from '../lib/measure.mjs'

const BIN = fileURLToPath(new URL('../../packages/acp-agent/dist/bin.cjs', import.meta.url))
const SERVER = fileURLToPath(
  new URL('../../packages/mcp/tests/fixtures/stdio-server.mjs', import.meta.url),
)
const { sessions, warmup } = childArgs()

const temp = tempDir('mcp')
const workspace = join(temp.dir, 'workspace')
mkdirSync(workspace)
const env = { ...process.env }
delete env.DEEPSEEK_API_KEY
const bin = spawn(process.execPath, [BIN, '--sessions', join(temp.dir, 'sessions')], {
  cwd: workspace,
  env,
  stdio: ['pipe', 'pipe', 'pipe'],
})
const exited = new Promise((resolve) => bin.on('close', resolve))
bin.stderr.resume()

const waiting = new Map()
let buffer = ''
bin.stdout.setEncoding('utf8').on('data', (text) => {
  buffer += text
  let end
  while ((end = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, end)
    buffer = buffer.slice(end + 1)
    const message = JSON.parse(line)
    if (message.id !== undefined && waiting.has(message.id)) {
      waiting.get(message.id)(message)
      waiting.delete(message.id)
    }
  }
})
let nextId = 1
function request(method, params) {
  const id = nextId++
  const answered = new Promise((resolve) => waiting.set(id, resolve))
  bin.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`)
  return answered.then((message) => {
    if (message.error) throw new Error(`${method}: ${message.error.message}`)
    return message.result
  })
}

const notes = { name: 'notes', command: process.execPath, args: [SERVER], env: [] }
async function openAndClose(mcpServers) {
  const start = performance.now()
  const { sessionId } = await request('session/new', { cwd: workspace, mcpServers })
  const elapsed = performance.now() - start
  await request('session/close', { sessionId })
  return elapsed
}

try {
  await request('initialize', { protocolVersion: 1, clientCapabilities: {} })
  const times = { with: [], without: [] }
  for (let i = 0; i < warmup + sessions; i++) {
    const withServer = await openAndClose([notes])
    const without = await openAndClose([])
    if (i < warmup) continue
    times.with.push(withServer)
    times.without.push(without)
  }
  report(times)
} finally {
  bin.stdin.end()
  await exited
  temp.remove()
}
