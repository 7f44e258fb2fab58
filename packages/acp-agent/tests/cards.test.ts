// What a person sees of the file tools, over the BUILT bin's real stdio with the SDK's own
// client: a permission request that carries the card it asks about (the diff, the arguments),
// a read card with the file's text rather than the model's framing, a failed card that names
// workspace paths as the titles do, a new file in new folders through an editor that makes no
// folders. Every frame the bin writes is checked against the ACP schema.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
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

const tempDir = tempDirs('dsh-cards')

beforeAll(() => ensureBuilt(), 420_000)
type Call = { id: string; name: string; arguments: Record<string, unknown> }

interface RunOptions {
  /** Flags for the bin (its sessions are stored in a temp dir of the run). */
  args?: string[]
  /** An editor client; absent, the client offers no fs methods. */
  editor?: HarnessEditor
  answer?: PermissionAnswerer
}

/** One prompt over the bin that plays `calls`; the updates, requests and the stored log. */
async function run(
  calls: Call[],
  prepare: (workspace: string) => Promise<void>,
  options: RunOptions = {},
) {
  const workspace = await tempDir('work')
  const home = await tempDir('home')
  const sessions = join(home, 'sessions')
  const script = join(home, 'script.json')
  const turns = [...calls.map((call) => ({ toolCalls: [call] })), { text: 'Done.' }]
  await writeFile(script, JSON.stringify({ turns }))
  await prepare(workspace)
  const bin = startBin(['--script', script, '--sessions', sessions, ...(options.args ?? [])], home)
  const { editor } = options
  const client = new HarnessClient(bin.stream, options.answer ?? choose('allow_once'), editor)
  const agent = client.connection.agent
  await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: editor ? { fs: editor.capabilities } : {},
  })
  const { sessionId } = await agent.request(acp.methods.agent.session.new, {
    cwd: workspace,
    mcpServers: [],
  })
  const { stopReason } = await agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: 'text', text: 'go' }],
  })
  client.connection.close()
  bin.child.stdin.end()
  expect(await bin.exited).toBe(0)
  assertAgentFramesValid(bin.frames)
  const updates = client.updates.map((n) => n.update)
  /** The stored log's tool results: what the model was given. */
  const modelText = async (callId: string) => {
    const [log] = (await readdir(sessions)).filter((name) => name.endsWith('.jsonl'))
    const events = (await readFile(join(sessions, log!), 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; callId?: string; content?: unknown })
    const result = events.find((event) => event.type === 'tool/result' && event.callId === callId)
    return JSON.stringify(result?.content)
  }
  const closing = (toolCallId: string) =>
    updates.findLast(
      (update): update is Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call_update' }> =>
        update.sessionUpdate === 'tool_call_update' && update.toolCallId === toolCallId,
    )
  return { stopReason, updates, requests: client.permissionRequests, workspace, modelText, closing }
}

const LINES = Array.from({ length: 14 }, (_, i) => `const line${i + 1} = ${i + 1}`)

describe('cards over stdio', () => {
  it('a permission request carries its diff and arguments, as the pending card showed them', async () => {
    const args = { file_path: 'a.ts', old_string: 'two', new_string: 'TWO' }
    const { requests, updates, workspace } = await run(
      [
        { id: 'r1', name: 'read', arguments: { file_path: 'a.ts' } },
        { id: 'e1', name: 'edit', arguments: args },
      ],
      (workspace) => writeFile(join(workspace, 'a.ts'), 'one\ntwo\n'),
    )
    expect(requests).toHaveLength(1)
    const { toolCall } = requests[0]!
    expect(toolCall).toMatchObject({ toolCallId: 'e1', status: 'pending', rawInput: args })
    expect(toolCall.content).toContainEqual({
      type: 'diff',
      path: join(workspace, 'a.ts'),
      oldText: 'one\ntwo\n',
      newText: 'one\nTWO\n',
    })
    const pending = updates.find(
      (update) => update.sessionUpdate === 'tool_call' && update.toolCallId === 'e1',
    )
    const { sessionUpdate: _update, ...shown } = pending as acp.SessionUpdate
    expect(toolCall).toEqual(shown)
  })

  it('a read card shows a summary and the window as the file has it, not the model framing', async () => {
    const { closing, modelText } = await run(
      [{ id: 'r1', name: 'read', arguments: { file_path: 'src/a.ts', offset: 5, limit: 6 } }],
      async (workspace) => {
        await mkdir(join(workspace, 'src'))
        await writeFile(join(workspace, 'src/a.ts'), `${LINES.join('\r\n')}\r\n`)
      },
      { args: ['--mode', 'full-access'] },
    )
    const card = closing('r1')
    expect(card).toMatchObject({ status: 'completed', title: 'Read src/a.ts' })
    expect(card?.content).toEqual([
      { type: 'content', content: { type: 'text', text: 'Lines 5–10 of 14' } },
      {
        type: 'content',
        content: {
          type: 'text',
          text: `\`\`\`typescript\n${LINES.slice(4, 10).join('\n')}\n\`\`\``,
        },
      },
    ])
    for (const framing of ['<path>', '<content>', '5: const', 'offset=11']) {
      expect(JSON.stringify(card)).not.toContain(framing)
    }
    // The model's text is as it was.
    const model = await modelText('r1')
    expect(model).toContain('<path>')
    expect(model).toContain('5: const line5 = 5')
    expect(model).toContain('Use offset=11 to continue.')
  })

  it('a failed card names a workspace path relative, as its title does', async () => {
    const { closing, modelText, workspace } = await run(
      [{ id: 'r1', name: 'read', arguments: { file_path: 'src/missing.ts' } }],
      async () => undefined,
      { args: ['--mode', 'full-access'] },
    )
    expect(closing('r1')).toMatchObject({
      status: 'failed',
      content: [
        {
          type: 'content',
          content: { type: 'text', text: 'Error: File not found: src/missing.ts' },
        },
      ],
      rawOutput: { error: { code: 'FS_NOT_FOUND' } },
    })
    expect(await modelText('r1')).toContain(join(workspace, 'src/missing.ts'))
  })

  it('a new file in new folders lands through an editor that makes no folders', async () => {
    // The harness editor saves with a bare writeFile: it makes no folder.
    const editor = new HarnessEditor({ saveOnWrite: true })
    let folderWhenAsked: boolean | undefined
    const { closing, workspace } = await run(
      [
        {
          id: 'w1',
          name: 'write',
          arguments: { file_path: 'docs/guide/new.md', content: '# New\n' },
        },
      ],
      async () => undefined,
      {
        editor,
        answer: (request) => {
          // Nothing is made before the person allows the write.
          folderWhenAsked = existsSync(dirname(request.toolCall.locations![0]!.path))
          return choose('allow_once')(request)
        },
      },
    )
    expect(folderWhenAsked).toBe(false)
    const file = join(workspace, 'docs/guide/new.md')
    expect(closing('w1')).toMatchObject({ status: 'completed', title: 'Created docs/guide/new.md' })
    expect(editor.writes.map((write) => write.path)).toEqual([file])
    expect(await readFile(file, 'utf8')).toBe('# New\n')
  })
})
