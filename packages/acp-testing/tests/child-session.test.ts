// A child session built by hand (`ctx.agents.createChild`), as a delegating tool would: its
// calls ask the person on the parent's ACP session, under the parent's mode and "always allow"
// memory; its cards reach the client on the parent's session; it is stored under the parent but
// never listed; closing the parent ends it. Over the real SDK client, with a store on disk.
import { mkdtemp, readFile, readdir, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FileSessionStore } from '@deepseek-ai/dsh-session-store'
import { afterEach, describe, expect, it } from 'vitest'
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk'
import { choose } from '../src/client'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

const write = (id: string, path: string) => ({
  id,
  name: 'write',
  arguments: { file_path: path, content: `${path}\n` },
})
const edit = {
  id: 'e1',
  name: 'edit',
  arguments: { file_path: 'c.txt', old_string: 'c.txt', new_string: 'C' },
}

// Parent and child share the scripted model: the parent's turn, then the child's.
const script = {
  turns: [
    { toolCalls: [write('w1', 'p.txt')] },
    { text: 'Parent done.' },
    { toolCalls: [write('w1', 'c.txt')] },
    { toolCalls: [edit] },
    { text: 'Child done.' },
  ],
}

describe('a child session', () => {
  it('asks on the parent session under its memory, shows its cards there, is not listed and ends with it', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-child-')))
    dirs.push(dir)
    const store = new FileSessionStore({ dir, warn: () => undefined })
    const asked: RequestPermissionRequest[] = []
    const always = choose('allow_always')
    const once = choose('allow_once')
    const harness = await makeHarness({
      withFs: true,
      store,
      script,
      // The parent's question is allowed always; the child's, once.
      answer: (request) => {
        asked.push(request)
        return asked.length === 1 ? always(request) : once(request)
      },
    })
    const parentId = await harness.newSession()
    expect((await harness.prompt(parentId, 'write p')).stopReason).toBe('end_turn')
    expect(asked).toHaveLength(1)

    const parent = harness.ctx.agents.get(parentId)!
    const child = harness.ctx.agents.createChild(parent)
    const childId = child.session.header.id
    expect(child.session.header.parent).toBe(parentId)
    expect((await child.send('write c, then edit it')).reason).toBe('completed')

    // The child's write was covered by the parent's "always allow"; its edit was asked on the
    // parent's session, about the child's card.
    expect(await readFile(join(harness.workspace, 'c.txt'), 'utf8')).toBe('C\n')
    expect(asked).toHaveLength(2)
    expect(asked[1]!.sessionId).toBe(parentId)
    expect(asked[1]!.toolCall.toolCallId).toBe(`${childId}/e1`)
    const cards = harness
      .updatesOf(parentId)
      .filter((update) => update.sessionUpdate === 'tool_call')
      .map((update) => update.toolCallId)
    expect(cards).toEqual(['w1', `${childId}/w1`, `${childId}/e1`])
    expect(harness.updates.every((n) => n.sessionId === parentId)).toBe(true)

    // Stored under the parent, never listed on its own.
    expect(await readdir(join(dir, `${parentId}.children`))).toContain(`${childId}.json`)
    const list = await harness.agent.request('session/list', {})
    expect(list.sessions.map((session) => session.sessionId)).toEqual([parentId])

    // Closing the parent ends the child.
    expect(child.disposed).toBe(false)
    await harness.agent.request('session/close', { sessionId: parentId })
    expect(child.disposed).toBe(true)
  })
})

describe("a child session under its parent's mode", () => {
  it("is refused a write when the parent is read-only, and its card says so on the parent's session", async () => {
    const harness = await makeHarness({
      withFs: true,
      script: { turns: [{ toolCalls: [write('w1', 'c.txt')] }, { text: 'Refused.' }] },
    })
    const parentId = await harness.newSession()
    await harness.setMode(parentId, 'read-only')
    const child = harness.ctx.agents.createChild(harness.ctx.agents.get(parentId)!)
    await child.send('write c')
    const result = child.session.events.find((event) => event.type === 'tool/result')
    expect(result?.type === 'tool/result' && result.error?.code).toBe('PERMISSION_DENIED')
    expect(harness.permissionRequests).toHaveLength(0)
    const closed = harness
      .updatesOf(parentId)
      .filter((update) => update.sessionUpdate === 'tool_call_update')
      .map((update) => update.status)
    expect(closed).toEqual(['failed'])
  })
})
