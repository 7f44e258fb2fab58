// Editor file access over the BUILT bin's real stdio, with a client that is an editor: the
// unsaved buffer is what the agent reads, an edit goes out as one fs/write_text_file with the
// edited text and the disk is left alone, typing under the agent makes its edit stale, and a
// client that never answers reads is timed out (--editor-timeout), the read served by the disk.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as acp from '@agentclientprotocol/sdk'
import {
  HarnessClient,
  HarnessEditor,
  assertAgentFramesValid,
  choose,
} from '@deepseek-ai/dsh-acp-testing'
import type { PermissionAnswerer } from '@deepseek-ai/dsh-acp-testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { tempDirs } from './helpers/temp-dirs'
import { startBin } from './helpers/spawn-bin'

const tempDir = tempDirs('dsh-editor')

beforeAll(() => ensureBuilt(), 420_000)
type Call = { id: string; name: string; arguments: Record<string, unknown> }
const read: Call = { id: 'r1', name: 'read', arguments: { file_path: 'a.ts' } }
const edit: Call = {
  id: 'e1',
  name: 'edit',
  arguments: { file_path: 'a.ts', old_string: 'two', new_string: 'TWO' },
}

/** One prompt over the bin with an editor client; returns the updates and the editor. */
async function run(
  calls: Call[],
  prepare: (workspace: string, editor: HarnessEditor) => Promise<void>,
  options: {
    args?: string[]
    answer?: (editor: HarnessEditor, file: string) => PermissionAnswerer
  } = {},
) {
  const workspace = await tempDir('work')
  const home = await tempDir('home')
  const script = join(home, 'script.json')
  const turns = [...calls.map((call) => ({ toolCalls: [call] })), { text: 'Done.' }]
  await writeFile(script, JSON.stringify({ turns }))
  const editor = new HarnessEditor()
  await prepare(workspace, editor)
  const bin = startBin(['--script', script, ...(options.args ?? [])], home)
  const file = join(workspace, 'a.ts')
  const answer = options.answer?.(editor, file) ?? choose('allow_once')
  const client = new HarnessClient(bin.stream, answer, editor)
  const agent = client.connection.agent
  await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: editor.capabilities },
  })
  const { sessionId } = await agent.request(acp.methods.agent.session.new, {
    cwd: workspace,
    mcpServers: [],
  })
  await agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text: 'go' }],
  })
  client.connection.close()
  bin.child.stdin.end()
  expect(await bin.exited).toBe(0)
  assertAgentFramesValid(bin.frames)
  const text = (toolCallId: string) =>
    JSON.stringify(
      client.updates
        .map((n) => n.update)
        .filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === toolCallId),
    )
  return { workspace, file, editor, sessionId, text }
}

describe('an editor client over stdio', () => {
  it('the agent reads the unsaved buffer, not the disk', async () => {
    const { text } = await run([read], async (workspace, editor) => {
      await writeFile(join(workspace, 'a.ts'), 'saved\n')
      editor.buffers.set(join(workspace, 'a.ts'), 'unsaved\n')
    })
    expect(text('r1')).toContain(JSON.stringify('```typescript\nunsaved\n```').slice(1, -1))
    expect(text('r1')).not.toContain('```typescript\\nsaved')
  })

  it('an edit is one fs/write_text_file with exactly the edited text, and the disk is left alone', async () => {
    const { file, editor, sessionId } = await run(
      [read, edit],
      async (workspace, editor) => {
        await writeFile(join(workspace, 'a.ts'), 'one\ntwo\n')
        editor.buffers.set(join(workspace, 'a.ts'), 'one\ntwo\nthree\n')
      },
      { args: ['--mode', 'full-access'] },
    )
    expect(editor.writes).toEqual([{ sessionId, path: file, content: 'one\nTWO\nthree\n' }])
    expect(await readFile(file, 'utf8')).toBe('one\ntwo\n')
  })

  it('typing in the buffer while the edit is asked about makes it stale', async () => {
    const { editor, file, text } = await run(
      [read, edit],
      async (workspace) => writeFile(join(workspace, 'a.ts'), 'one\ntwo\n'),
      {
        answer: (editor, file) => (request) => {
          editor.buffers.set(file, 'one\ntwo\ntyped\n')
          return choose('allow_once')(request)
        },
      },
    )
    expect(text('e1')).toContain('FS_STALE_VERSION')
    expect(editor.writes).toEqual([])
    expect(await readFile(file, 'utf8')).toBe('one\ntwo\n')
  })

  it('a client that never answers reads is timed out (--editor-timeout) and the read falls back to the disk', async () => {
    const { text, editor } = await run(
      [read],
      async (workspace, editor) => {
        await writeFile(join(workspace, 'a.ts'), 'on disk\n')
        editor.hangReads = true
      },
      { args: ['--editor-timeout', '0.2'] },
    )
    expect(editor.reads).toHaveLength(1)
    expect(text('r1')).toContain('"status":"completed"')
    expect(text('r1')).toContain('on disk')
    expect(text('r1')).not.toContain('FS_IO')
  })
})
