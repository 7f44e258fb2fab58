// Child: a stored session of `events` events (turns of a user message, text chunks, a read and
// an edit with its diff, their results) loaded over a real ACP session (the acp-testing
// harness with a file store), timed from the session/load request to its response — the
// replay of every update included. mode 'bin': the same over the `dsh-acp` bin's real stdio
// (`--sessions` on the store), driven by `client` 'ndjson' (a minimal client that only splits
// lines and parses them) or 'sdk' (the ACP SDK's client, which validates every message).
// mode 'raw': the same log read and parsed line by line, the floor of any load.
// With `profile`, the bin writes a CPU profile into that directory on exit.
// Args: { mode, events, client?, profile? }. Reports { ms, rssBefore, rssAfter, replayed, binCpuMs?, clientCpuMs? } (`replayed`: the cards
// replayed closed, which must be every card of the log; over the bin, the CPU each side spent on
// the load, which a busy machine does not inflate as it does the wall time).
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { performance } from 'node:perf_hooks'
import { tempDir } from '../lib/data.mjs'
import { dist } from '../lib/stack.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'

const { mode, events, client = 'ndjson', profile } = childArgs()
const { FileSessionStore } = await import(dist('session-store'))
const store = tempDir('load-store')
const work = tempDir('load-work')
const sessions = new FileSessionStore({ dir: store.dir, warn: () => undefined })
const id = 'bench-session'
const now = new Date().toISOString()
const header = {
  id,
  cwd: work.dir,
  roots: [work.dir],
  createdAt: now,
  updatedAt: now,
  title: 'bench',
}
const writer = sessions.create(header)
const file = join(work.dir, 'a.ts')
const diff = {
  type: 'diff',
  path: file,
  oldText: 'const a = 1\n'.repeat(20),
  newText: 'const a = 2\n'.repeat(20),
}
let written = 0
/** Tool results written: each is a card the load must replay closed. */
let cards = 0
for (let turn = 0; written < events; turn++) {
  const turnId = `t${turn}`
  const add = (event) => {
    if (written < events) writer.append({ turnId, ...event })
    written++
  }
  add({ type: 'turn/start' })
  add({ type: 'user/message', text: `change number ${turn}` })
  for (let i = 0; i < 4; i++) add({ type: 'assistant/chunk', kind: 'text', text: 'Some words. ' })
  const callId = `c${turn}`
  add({
    type: 'tool/call',
    callId,
    name: 'edit',
    arguments: { file_path: 'a.ts', old_string: 'a', new_string: 'b' },
    presentation: { title: 'Edit a.ts', kind: 'edit', locations: [{ path: 'a.ts' }] },
  })
  add({ type: 'tool/started', callId })
  if (written < events) cards++
  add({
    type: 'tool/result',
    callId,
    name: 'edit',
    content: [{ type: 'text', text: 'Edited.' }],
    isError: false,
    presentation: { title: 'Edited a.ts', content: [diff], locations: [{ path: file, line: 1 }] },
  })
  add({ type: 'turn/end', reason: 'completed' })
}
writer.close()

let result
let replayed = 0
if (mode === 'raw') {
  result = await measure(() => {
    const lines = readFileSync(join(store.dir, `${id}.jsonl`), 'utf8').split('\n')
    return lines.filter((line) => line !== '').map((line) => JSON.parse(line)).length
  })
} else if (mode === 'bin') {
  result = await overBin()
  replayed = result.replayed
} else {
  const { createAcpHarness } = await import(dist('acp-testing'))
  const harness = await createAcpHarness({ script: { turns: [] }, store: sessions, withFs: true })
  result = await measure(() =>
    harness.agent.request('session/load', { sessionId: id, cwd: work.dir, mcpServers: [] }),
  )
  replayed = harness.updates.filter(({ update }) => isClosedCard(update)).length
  await harness.dispose()
}
if (mode !== 'raw' && replayed !== cards) {
  throw new Error(`${replayed} of ${cards} cards were replayed`)
}
store.remove()
work.remove()
const { ms, rssBefore, rssAfter, binCpuMs, clientCpuMs } = result
report({ ms, rssBefore, rssAfter, replayed, binCpuMs, clientCpuMs })

/** A card shown finished: its closing update, or (a replay) the card in its final state. */
function isClosedCard(update) {
  const card = update.sessionUpdate === 'tool_call_update' || update.sessionUpdate === 'tool_call'
  return card && update.status === 'completed'
}

/** session/load over the bin's stdio, timed from the request to its response (wall clock). */
async function overBin() {
  const BIN = fileURLToPath(new URL('../../packages/acp-agent/dist/bin.cjs', import.meta.url))
  const env = { ...process.env }
  delete env.DEEPSEEK_API_KEY
  const flags = profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`]
  const bin = spawn(process.execPath, [...flags, BIN, '--sessions', store.dir], {
    cwd: work.dir,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stderr = ''
  bin.stderr.setEncoding('utf8').on('data', (text) => (stderr += text))
  const exited = new Promise((resolve) => bin.on('close', resolve))
  try {
    const run = client === 'sdk' ? await sdkClient(bin) : ndjsonClient(bin)
    await run.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const binBefore = cpuOf(bin.pid)
    const clientBefore = process.cpuUsage()
    const start = performance.now()
    await run.request('session/load', { sessionId: id, cwd: work.dir, mcpServers: [] })
    const ms = performance.now() - start
    const clientCpu = process.cpuUsage(clientBefore)
    const binCpuMs = cpuOf(bin.pid) - binBefore
    const clientCpuMs = (clientCpu.user + clientCpu.system) / 1000
    const replayed = run.updates()
    run.close()
    bin.stdin.end()
    await exited
    return { ms, rssBefore: 0, rssAfter: 0, replayed, binCpuMs, clientCpuMs }
  } catch (error) {
    throw new Error(`${error}\n${stderr}`, { cause: error })
  } finally {
    bin.kill()
  }
}

/** CPU time (user + system, ms) process `pid` used so far, from /proc (Linux); NaN elsewhere. */
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    // Not Linux (no /proc): the CPU figure is left out.
    return Number.NaN
  }
}

/** A minimal client: lines split and parsed, nothing validated. */
function ndjsonClient(bin) {
  const pending = new Map()
  let nextId = 1
  let updates = 0
  let buffered = ''
  bin.stdout.setEncoding('utf8').on('data', (text) => {
    buffered += text
    let newline = buffered.indexOf('\n')
    while (newline !== -1) {
      const line = buffered.slice(0, newline)
      buffered = buffered.slice(newline + 1)
      if (line !== '') {
        const message = JSON.parse(line)
        if (message.method === 'session/update') {
          if (isClosedCard(message.params.update)) updates++
        } else if (message.method === undefined) {
          const waiting = pending.get(message.id)
          pending.delete(message.id)
          if (message.error) waiting?.reject(new Error(JSON.stringify(message.error)))
          else waiting?.resolve(message.result)
        }
      }
      newline = buffered.indexOf('\n')
    }
  })
  return {
    request: (method, params) =>
      new Promise((resolve, reject) => {
        const requestId = nextId++
        pending.set(requestId, { resolve, reject })
        bin.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: requestId, method, params })}\n`)
      }),
    updates: () => updates,
    close: () => undefined,
  }
}

/** The ACP SDK's client over the bin's stdio. */
async function sdkClient(bin) {
  const require = createRequire(new URL('../../packages/acp-agent/package.json', import.meta.url))
  const acp = await import(pathToFileURL(require.resolve('@agentclientprotocol/sdk')).href)
  let updates = 0
  const connection = acp
    .client({ name: 'dsh-bench' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      if (isClosedCard(params.update)) updates++
    })
    .connect(acp.ndJsonStream(Writable.toWeb(bin.stdin), Readable.toWeb(bin.stdout)))
  return {
    request: (method, params) => connection.agent.request(method, params),
    updates: () => updates,
    close: () => connection.close(),
  }
}
