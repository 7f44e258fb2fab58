// Child: `calls` small reads in one session through the `dsh-acp` bin over real stdio, timed
// from the first prompt request to the last response (see readingScript), after WARMUP_CALLS
// reads in the same session. The bin runs as its own process (scripted model,
// one `read` per turn, sessions stored in a temp dir) and this child drives it as the client:
// - client 'ndjson': a minimal client that splits the bin's stdout into lines, parses each to
//   find responses and requests, answers a permission request with its first allow option,
//   and validates nothing: what remains is the bin's own cost;
// - client 'sdk': the ACP SDK's ClientSideConnection (which validates every incoming message
//   with its schemas, in this process, as an editor's own client would in its).
// The session runs in permission mode `mode` (default `ask`). With `profile`, the bin writes a
// CPU profile (`--cpu-prof`) into that directory on exit.
// Args: { client, calls, files, mode?, profile? }. Reports { ms, completed, window, stderrBytes }: `window` is the
// timed span in µs of the monotonic clock, the clock of the profile's sample times.
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { performance } from 'node:perf_hooks'
import { tempDir } from '../lib/data.mjs'
import { childArgs, report } from '../lib/measure.mjs'
import {
  PROMPTS_TEXT,
  WARMUP_CALLS,
  promptsFor,
  readingScript,
  seedSmallFiles,
} from '../lib/small-files.mjs'

const { client, calls, files, mode = 'ask', profile } = childArgs()
// The bin as installed is one bundle; a profile by package runs the same program over the
// packages' own dist modules (dist/bin-modules.js).
const BIN_FILE = profile === undefined ? 'bin.cjs' : 'bin-modules.js'
const BIN = fileURLToPath(new URL(`../../packages/acp-agent/dist/${BIN_FILE}`, import.meta.url))

/** The timed window on the system's monotonic clock (µs), which the bin's CPU profile uses. */
const window = {}

const temp = tempDir('stdio')
const workspace = join(temp.dir, 'workspace')
mkdirSync(workspace)
seedSmallFiles(workspace, files)
const script = join(temp.dir, 'script.json')
writeFileSync(script, JSON.stringify(readingScript(WARMUP_CALLS + calls, files)))

const env = { ...process.env }
delete env.DEEPSEEK_API_KEY
// The default sampling (every 1 ms) disturbs the run least; `calls` gives the samples.
const flags = profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`]
const bin = spawn(
  process.execPath,
  [...flags, BIN, '--script', script, '--mode', mode, '--sessions', join(temp.dir, 'sessions')],
  { cwd: workspace, env, stdio: ['pipe', 'pipe', 'pipe'] },
)
let stderr = ''
bin.stderr.setEncoding('utf8').on('data', (text) => (stderr += text))
const exited = new Promise((resolve) => bin.on('close', resolve))

try {
  const result = client === 'sdk' ? await viaSdk() : await viaNdjson()
  bin.stdin.end()
  await exited
  if (result.completed !== calls) {
    throw new Error(`${result.completed} of ${calls} reads completed\n${stderr}`)
  }
  report({ ...result, window, stderrBytes: stderr.length })
} finally {
  bin.kill()
  temp.remove()
}

/** The minimal client: ndjson frames, no validation, permission answered with allow. */
async function viaNdjson() {
  const pending = new Map()
  let nextId = 1
  let completed = 0
  const send = (message) => bin.stdin.write(`${JSON.stringify(message)}\n`)
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve, reject })
      send({ jsonrpc: '2.0', id, method, params })
    })
  const onMessage = (message) => {
    if (message.method === undefined) {
      const waiting = pending.get(message.id)
      pending.delete(message.id)
      if (message.error) waiting?.reject(new Error(JSON.stringify(message.error)))
      else waiting?.resolve(message.result)
    } else if (message.id !== undefined) {
      send({ jsonrpc: '2.0', id: message.id, ...answer(message) })
    } else if (message.params?.update?.status === 'completed') {
      completed++
    }
  }
  let buffered = ''
  bin.stdout.setEncoding('utf8').on('data', (text) => {
    buffered += text
    let newline = buffered.indexOf('\n')
    while (newline !== -1) {
      const line = buffered.slice(0, newline)
      buffered = buffered.slice(newline + 1)
      if (line !== '') onMessage(JSON.parse(line))
      newline = buffered.indexOf('\n')
    }
  })
  await request('initialize', { protocolVersion: 1, clientCapabilities: {} })
  const { sessionId } = await request('session/new', { cwd: workspace, mcpServers: [] })
  const prompt = async () => {
    const params = { sessionId, prompt: [{ type: 'text', text: PROMPTS_TEXT }] }
    const response = await request('session/prompt', params)
    if (response.stopReason !== 'end_turn') throw new Error(`stopped: ${response.stopReason}`)
  }
  const ms = await timedAfterWarmup(prompt)
  completed -= WARMUP_CALLS
  return { ms, completed }
}

/** Runs the warm-up prompts, then the timed ones; the ms of the timed ones. */
async function timedAfterWarmup(prompt) {
  for (let i = 0; i < promptsFor(WARMUP_CALLS); i++) await prompt()
  window.start = Number(process.hrtime.bigint() / 1000n)
  const start = performance.now()
  for (let i = 0; i < promptsFor(calls); i++) await prompt()
  const ms = performance.now() - start
  window.end = Number(process.hrtime.bigint() / 1000n)
  return ms
}

/** A request from the bin: a permission question gets its first allow option. */
function answer(message) {
  if (message.method === 'session/request_permission') {
    const allow = message.params.options.find((option) => option.kind.startsWith('allow'))
    return { result: { outcome: { outcome: 'selected', optionId: allow.optionId } } }
  }
  return { error: { code: -32601, message: `${message.method} is not offered by this client` } }
}

/** The SDK's client over the same stdio. */
async function viaSdk() {
  const require = createRequire(new URL('../../packages/acp-agent/package.json', import.meta.url))
  const acp = await import(pathToFileURL(require.resolve('@agentclientprotocol/sdk')).href)
  const { methods } = acp
  let completed = 0
  const connection = acp
    .client({ name: 'dsh-bench' })
    .onNotification(methods.client.session.update, ({ params }) => {
      if (params.update.status === 'completed') completed++
    })
    .onRequest(
      methods.client.session.requestPermission,
      ({ params }) => answer({ method: 'session/request_permission', params }).result,
    )
    .connect(acp.ndJsonStream(Writable.toWeb(bin.stdin), Readable.toWeb(bin.stdout)))
  const { agent } = connection
  await agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} })
  const session = { cwd: workspace, mcpServers: [] }
  const { sessionId } = await agent.request(methods.agent.session.new, session)
  const prompt = async () => {
    const params = { sessionId, prompt: [{ type: 'text', text: PROMPTS_TEXT }] }
    const response = await agent.request(methods.agent.session.prompt, params)
    if (response.stopReason !== 'end_turn') throw new Error(`stopped: ${response.stopReason}`)
  }
  const ms = await timedAfterWarmup(prompt)
  completed -= WARMUP_CALLS
  connection.close()
  return { ms, completed }
}
