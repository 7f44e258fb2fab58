// Editor file access over the real SDK client: the agent reads the person's unsaved buffer,
// writes through the editor (one fs/write_text_file with exactly the edited text, the disk left
// to the person), refuses an edit the person typed under, waits for a write the editor holds
// (its card says so), hands the files to the disk when reads go unanswered, and keeps each
// connection to its own editor.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ndJsonStream } from '@agentclientprotocol/sdk'
import type { SessionEvent } from '@deepseek-ai/dsh-agent'
import { describe, expect, it } from 'vitest'
import { HarnessClient, choose } from '../src/client'
import { HarnessEditor } from '../src/editor'
import { FramePipes } from '../src/frames'
import type { AcpHarness } from '../src/harness'
import { assertAgentFramesValid } from '../src/schema'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

type Call = { id: string; name: string; arguments: Record<string, unknown> }
const script = (...calls: Call[]) => ({
  turns: [...calls.map((call) => ({ toolCalls: [call] })), { text: 'Done.' }],
})
const read = (id: string): Call => ({ id, name: 'read', arguments: { file_path: 'a.ts' } })
const edit = (id: string, old_string: string, new_string: string): Call => ({
  id,
  name: 'edit',
  arguments: { file_path: 'a.ts', old_string, new_string },
})

function resultOf(harness: AcpHarness, sessionId: string, callId: string) {
  const events = harness.ctx.agents.get(sessionId)?.session.events ?? []
  return events.find(
    (event): event is Extract<SessionEvent, { type: 'tool/result' }> =>
      event.type === 'tool/result' && event.callId === callId,
  )
}

describe('reading through the editor', () => {
  it('shows the unsaved buffer, not the disk, and says the editor served it', async () => {
    const harness = await makeHarness({ withFs: true, editor: {}, script: script(read('r1')) })
    const file = join(harness.workspace, 'a.ts')
    await writeFile(file, 'saved on disk\n')
    harness.editor?.buffers.set(file, 'typed but unsaved\n')
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'read it')
    const result = resultOf(harness, sessionId, 'r1')
    expect(result?.content[0]?.text).toContain('1: typed but unsaved')
    expect(result?.details).toMatchObject({ source: 'editor' })
    expect(harness.editor?.reads.map((request) => request.path)).toContain(file)
  })

  it('a client that offers no fs methods gets the disk', async () => {
    const harness = await makeHarness({ withFs: true, script: script(read('r1')) })
    await writeFile(join(harness.workspace, 'a.ts'), 'saved on disk\n')
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'read it')
    const result = resultOf(harness, sessionId, 'r1')
    expect(result?.content[0]?.text).toContain('1: saved on disk')
    expect(result?.details).toMatchObject({ source: 'disk' })
  })
})

describe('writing through the editor', () => {
  it('an edit goes out as one fs/write_text_file with exactly the edited text; the disk stays', async () => {
    const harness = await makeHarness({
      withFs: true,
      mode: 'full-access',
      editor: {},
      script: script(read('r1'), edit('e1', 'two', 'TWO')),
    })
    const file = join(harness.workspace, 'a.ts')
    await writeFile(file, 'one\r\ntwo\r\n')
    harness.editor?.buffers.set(file, 'one\r\ntwo\r\nthree (unsaved)\r\n')
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'edit it')
    expect(harness.editor?.writes).toEqual([
      { sessionId, path: file, content: 'one\r\nTWO\r\nthree (unsaved)\r\n' },
    ])
    expect(await readFile(file, 'utf8')).toBe('one\r\ntwo\r\n')
    expect(resultOf(harness, sessionId, 'e1')?.isError).toBe(false)
  })

  it('the person typing in the buffer between the read and the edit makes the edit stale', async () => {
    const harness = await makeHarness({
      withFs: true,
      editor: {},
      script: script(read('r1'), edit('e1', 'two', 'TWO')),
    })
    const file = join(harness.workspace, 'a.ts')
    await writeFile(file, 'one\ntwo\n')
    // While the person is asked about the edit, they type in the buffer, then allow it.
    harness.answerWith((request) => {
      harness.editor?.buffers.set(file, 'one\ntwo\nand more typing\n')
      return choose('allow_once')(request)
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'edit it')
    const result = resultOf(harness, sessionId, 'e1')
    expect(result?.error?.code).toBe('FS_STALE_VERSION')
    expect(result?.content[0]?.text).toContain('Read it again')
    expect(harness.editor?.writes).toEqual([])
    expect(harness.editor?.buffers.get(file)).toBe('one\ntwo\nand more typing\n')
  })

  it('a client that never answers reads: the first read falls back to the disk after the timeout, said once; no later read waits', async () => {
    const harness = await makeHarness({
      withFs: true,
      notices: true,
      editor: { timeoutMs: 100 },
      script: script(read('r1'), read('r2'), edit('e1', 'x', 'y')),
      mode: 'full-access',
    })
    const file = join(harness.workspace, 'a.ts')
    await writeFile(file, 'x\n')
    harness.editor!.hangReads = true
    const sessionId = await harness.newSession()
    expect(await harness.prompt(sessionId, 'read twice, then edit')).toEqual({
      stopReason: 'end_turn',
    })
    expect(resultOf(harness, sessionId, 'r1')?.isError).toBe(false)
    expect(resultOf(harness, sessionId, 'r2')?.isError).toBe(false)
    expect(resultOf(harness, sessionId, 'e1')?.isError).toBe(false)
    expect(harness.editor?.reads).toHaveLength(1)
    expect(harness.editor?.writes).toEqual([])
    expect(await readFile(file, 'utf8')).toBe('y\n')
    const notices = harness.updatesOf(sessionId).filter((u) => u.sessionUpdate === 'notice')
    expect(notices).toEqual([
      expect.objectContaining({
        severity: 'warning',
        title: expect.stringContaining('did not answer a file read within 0.1 s'),
      }),
    ])
    assertAgentFramesValid(harness.agentFrames())
  })

  it('a write the editor holds (a person deciding) is waited for, its card saying it is with the editor, and lands', async () => {
    const harness = await makeHarness({
      withFs: true,
      editor: { timeoutMs: 100 },
      script: script(read('r1'), edit('e1', 'two', 'TWO')),
      mode: 'full-access',
    })
    const file = join(harness.workspace, 'a.ts')
    await writeFile(file, 'one\ntwo\n')
    let decide = () => {}
    harness.editor!.holdWrites = new Promise<void>((resolve) => (decide = resolve))
    const sessionId = await harness.newSession()
    const prompt = harness.prompt(sessionId, 'edit it')
    const waiting = await harness.waitForUpdate(
      (n) =>
        n.update.sessionUpdate === 'tool_call_update' &&
        n.update.toolCallId === 'e1' &&
        n.update.title != null,
    )
    expect(waiting.update).toMatchObject({
      title: 'Edit a.ts (with the editor: waiting for it to apply the change)',
    })
    decide()
    expect(await prompt).toEqual({ stopReason: 'end_turn' })
    expect(resultOf(harness, sessionId, 'e1')?.isError).toBe(false)
    expect(harness.editor?.buffers.get(file)).toBe('one\nTWO\n')
    assertAgentFramesValid(harness.agentFrames())
  })
})

describe('two connections', () => {
  it('each session reads through its own connection: an editor and a plain client never cross', async () => {
    const harness = await makeHarness({
      withFs: true,
      editor: {},
      script: {
        turns: [
          { toolCalls: [read('r1')] },
          { text: 'a' },
          { toolCalls: [read('r2')] },
          { text: 'b' },
        ],
      },
    })
    const file = join(harness.workspace, 'a.ts')
    await writeFile(file, 'on disk\n')
    harness.editor?.buffers.set(file, 'in the editor\n')
    // A second client on the same bridge, offering no fs methods.
    const pipes = new FramePipes()
    const server = harness.ctx.acp.serve(ndJsonStream(pipes.agentOutput, pipes.agentInput))
    const plain = new HarnessClient(ndJsonStream(pipes.clientOutput, pipes.clientInput))
    await plain.connection.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: {},
    })
    const withEditor = await harness.newSession()
    await harness.prompt(withEditor, 'read')
    const { sessionId: without } = await plain.connection.agent.request('session/new', {
      cwd: harness.workspace,
      mcpServers: [],
    })
    await plain.connection.agent.request('session/prompt', {
      sessionId: without,
      prompt: [{ type: 'text', text: 'read' }],
    })
    expect(resultOf(harness, withEditor, 'r1')?.content[0]?.text).toContain('1: in the editor')
    expect(resultOf(harness, without, 'r2')?.content[0]?.text).toContain('1: on disk')
    expect(harness.editor?.reads.every((request) => request.sessionId === withEditor)).toBe(true)
    plain.connection.close()
    pipes.endClientOutput()
    await server.closed
    assertAgentFramesValid(pipes.frames)
    expect(new HarnessEditor().capabilities).toEqual({ readTextFile: true, writeTextFile: true })
  })
})
