// Child: a read and an edit of one ~1 MiB text file through a real ACP session (the
// acp-testing harness: SDK client in memory, the app's fs stack), timed each. path 'editor':
// the client is an editor offering fs/read_text_file and fs/write_text_file (its buffer starts
// as the file), so both go through it; path 'disk': a client without them, so both hit the disk.
// The session runs in full-access (no questions). Args: { path, bytes }.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { buildText } from '../lib/data.mjs'
import { dist } from '../lib/stack.mjs'
import { childArgs, measure, report } from '../lib/measure.mjs'

const { path, bytes } = childArgs()
const { createAcpHarness } = await import(dist('acp-testing'))
const harness = await createAcpHarness({
  script: { turns: [] },
  withFs: true,
  mode: 'full-access',
  ...(path === 'editor' && { editor: {} }),
})
const file = join(harness.workspace, 'big.txt')
const text = `${buildText(bytes)}MARKER line\n${buildText(bytes / 64, 3)}`
await writeFile(file, text)
const sessionId = await harness.newSession()
const agent = harness.ctx.agents.get(sessionId)
let calls = 0
const call = async (name, args) => {
  const result = await harness.ctx.tools.execute({
    callId: `b${++calls}`,
    name,
    arguments: { file_path: file, ...args },
    session: agent.session,
    agent,
  })
  if (result.isError) throw new Error(`${name} failed: ${result.content[0].text}`)
  return result
}
const read = await measure(() => call('read', { limit: 2000 }))
const edit = await measure(() => call('edit', { old_string: 'MARKER line', new_string: 'EDITED' }))
const source = read.value.details.source
await harness.dispose()
if (source !== path) throw new Error(`the read was served by ${source}, not ${path}`)
report({ read: read.ms, edit: edit.ms, rssBefore: read.rssBefore, rssAfter: edit.rssAfter })
