// Child: a stored session of `events` events (turns of a user message, text chunks, a read and
// an edit with its diff, their results) loaded over a real ACP session (the acp-testing
// harness with a file store), timed from the session/load request to its response — the
// replay of every update included. mode 'raw': the same log read and parsed line by line,
// the floor of any load. Args: { mode, events }.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../lib/data.mjs'
import { dist } from '../lib/stack.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'

const { mode, events } = childArgs()
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
if (mode === 'raw') {
  result = await measure(() => {
    const lines = readFileSync(join(store.dir, `${id}.jsonl`), 'utf8').split('\n')
    return lines.filter((line) => line !== '').map((line) => JSON.parse(line)).length
  })
} else {
  const { createAcpHarness } = await import(dist('acp-testing'))
  const harness = await createAcpHarness({ script: { turns: [] }, store: sessions, withFs: true })
  result = await measure(() =>
    harness.agent.request('session/load', { sessionId: id, cwd: work.dir, mcpServers: [] }),
  )
  const replayed = harness.updates.length
  await harness.dispose()
  if (replayed < events / 2) throw new Error(`only ${replayed} updates were replayed`)
}
store.remove()
work.remove()
report({ ms: result.ms, rssBefore: result.rssBefore, rssAfter: result.rssAfter })
