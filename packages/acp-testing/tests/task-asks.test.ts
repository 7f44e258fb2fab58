// What a delegate may change, over the bridge with the real file tools: in `ask`, a general
// delegate's write is asked on the parent's ACP session while the task card shows that call as
// asked, the request's card names the task's card (`_meta.dsh.parentToolCallId`), and the file
// lands once allowed (and does not when refused); the parent's "always allow" covers it
// unasked; an explorer's write is refused before anybody is asked, its card says why, and the
// file is never made; so is a general delegate's in the read-only and plan modes (the task
// call itself runs in every mode, its delegate's calls judged each in the session's mode). A
// task's delegate is stored under its parent and `session/list` lists
// the parent alone. Every frame schema-valid.
import { mkdtemp, readFile, readdir, realpath, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import { FileSessionStore } from '@deepseek-ai/dsh-session-store'
import { afterEach, describe, expect, it } from 'vitest'
import { choose } from '../src/client'
import type { PermissionAnswerer } from '../src/client'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

const task = (agentType: string) => ({
  id: 't1',
  name: 'task',
  arguments: {
    description: 'write a note',
    prompt: 'Write note.txt saying hi.',
    agent_type: agentType,
  },
})
const write = { id: 'w1', name: 'write', arguments: { file_path: 'note.txt', content: 'hi\n' } }
/** The parent's task call, the delegate's write, the delegate's report, the parent's answer. */
const script = (agentType: string) => ({
  turns: [
    { toolCalls: [task(agentType)] },
    { toolCalls: [write] },
    { text: 'Delegate: done what I could.' },
    { text: 'Parent: done.' },
  ],
})

function cardText(update: SessionUpdate): string {
  if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return ''
  return (update.content ?? [])
    .map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : ''))
    .join('|')
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )

describe("a delegate's write in ask", () => {
  for (const [answer, lands] of [
    ['allow_once', true],
    ['reject_once', false],
  ] as const) {
    it(`is asked on the parent's session, the task card showing it asked; ${answer}: ${lands ? 'it lands' : 'nothing is written'}`, async () => {
      let taskCardWhenAsked = ''
      let sessionId = ''
      const harness = await makeHarness({ withFs: true, withTask: true, script: script('general') })
      const answerer: PermissionAnswerer = async (request) => {
        // The task card says its delegate's call waits on the person (`?`), before the answer.
        const shown = await harness.waitForUpdate(
          (n) => n.sessionId === sessionId && cardText(n.update).startsWith('? '),
        )
        taskCardWhenAsked = `${(shown.update as { toolCallId: string }).toolCallId} ${cardText(shown.update)}`
        return choose(answer)(request)
      }
      harness.answerWith(answerer)
      sessionId = await harness.newSession()
      expect((await harness.prompt(sessionId, 'delegate it')).stopReason).toBe('end_turn')

      expect(harness.permissionRequests).toHaveLength(1)
      const [request] = harness.permissionRequests
      expect(request!.sessionId).toBe(sessionId)
      expect(request!.toolCall.toolCallId).toMatch(/^[0-9a-f-]{36}\/w1$/)
      // The question says which task asks: it is not the parent's own.
      expect(request!.toolCall.title).toBe('Task "write a note": Write note.txt')
      expect(request!.toolCall._meta).toEqual({ dsh: { parentToolCallId: 't1' } })
      expect(taskCardWhenAsked).toBe('t1 ? Write note.txt')
      const path = join(harness.workspace, 'note.txt')
      if (lands) expect(await readFile(path, 'utf8')).toBe('hi\n')
      else expect(await exists(path)).toBe(false)
      // The delegate's card ends as its call did, on the parent's session.
      const childEnd = harness
        .updatesOf(sessionId)
        .findLast(
          (u) =>
            u.sessionUpdate === 'tool_call_update' && u.toolCallId === request!.toolCall.toolCallId,
        )
      expect(childEnd).toMatchObject({ status: lands ? 'completed' : 'failed' })
      const taskEnd = harness
        .updatesOf(sessionId)
        .findLast((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 't1')
      expect(taskEnd).toMatchObject({ status: 'completed' })
      expect(cardText(taskEnd!)).toBe(
        `${lands ? '✓' : '✗'} Write note.txt\n\nDelegate: done what I could.`,
      )
    })
  }

  it('is refused in the read-only explorer without asking; the file is never made', async () => {
    const harness = await makeHarness({ withFs: true, withTask: true, script: script('explorer') })
    const sessionId = await harness.newSession()
    expect((await harness.prompt(sessionId, 'delegate it')).stopReason).toBe('end_turn')
    expect(harness.permissionRequests).toEqual([])
    expect(await exists(join(harness.workspace, 'note.txt'))).toBe(false)
    const updates = harness.updatesOf(sessionId)
    const childEnd = updates.findLast(
      (u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId.endsWith('/w1'),
    )
    expect(childEnd).toMatchObject({
      status: 'failed',
      _meta: { dsh: { parentToolCallId: 't1' } },
    })
    expect(cardText(childEnd!)).toContain('You are an explorer')
    const taskEnd = updates.findLast(
      (u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 't1',
    )
    expect(taskEnd).toMatchObject({ status: 'completed' })
    expect(cardText(taskEnd!)).toBe('✗ Write note.txt\n\nDelegate: done what I could.')
  })
})

describe("a general delegate's write where the session may not change anything", () => {
  for (const [mode, refusal] of [
    ['read-only', 'Not run: the "Read only" mode refuses edits.'],
    ['plan', 'Not run: the session is planning'],
  ] as const) {
    it(`is refused in ${mode} without asking; the file is never made`, async () => {
      const harness = await makeHarness({
        withFs: true,
        withTask: true,
        mode,
        script: script('general'),
      })
      const sessionId = await harness.newSession()
      expect((await harness.prompt(sessionId, 'delegate it')).stopReason).toBe('end_turn')
      expect(harness.permissionRequests).toEqual([])
      expect(await exists(join(harness.workspace, 'note.txt'))).toBe(false)
      const updates = harness.updatesOf(sessionId)
      const childEnd = updates.findLast(
        (u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId.endsWith('/w1'),
      )
      expect(childEnd).toMatchObject({ status: 'failed' })
      expect(cardText(childEnd!)).toContain(refusal)
      const taskEnd = updates.findLast(
        (u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 't1',
      )
      expect(taskEnd).toMatchObject({ status: 'completed' })
      expect(cardText(taskEnd!)).toBe('✗ Write note.txt\n\nDelegate: done what I could.')
    })
  }
})

describe("the parent's always-allow", () => {
  it("covers its delegate's write: nobody is asked again and the file lands", async () => {
    const first = { id: 'w0', name: 'write', arguments: { file_path: 'first.txt', content: 'x\n' } }
    const harness = await makeHarness({
      withFs: true,
      withTask: true,
      answer: choose('allow_always'),
      script: {
        turns: [{ toolCalls: [first] }, { text: 'Wrote it.' }, ...script('general').turns],
      },
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'write first.txt')
    expect(harness.permissionRequests.map((r) => r.toolCall.toolCallId)).toEqual(['w0'])
    expect((await harness.prompt(sessionId, 'delegate it')).stopReason).toBe('end_turn')
    expect(harness.permissionRequests).toHaveLength(1)
    expect(await readFile(join(harness.workspace, 'note.txt'), 'utf8')).toBe('hi\n')
  })
})

describe("a task's delegate in the store", () => {
  it('is stored under its parent and never listed', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-task-store-')))
    dirs.push(dir)
    const store = new FileSessionStore({ dir, warn: () => undefined })
    const harness = await makeHarness({
      withFs: true,
      withTask: true,
      store,
      mode: 'full-access',
      script: script('general'),
    })
    const sessionId = await harness.newSession()
    expect((await harness.prompt(sessionId, 'delegate it')).stopReason).toBe('end_turn')
    const childId = childIdOf(harness.updatesOf(sessionId))
    expect(childId).toMatch(/^[0-9a-f-]{36}$/)
    expect(await readdir(join(dir, `${sessionId}.children`))).toContain(`${childId}.json`)
    const list = await harness.agent.request('session/list', {})
    expect(list.sessions.map((session) => session.sessionId)).toEqual([sessionId])
  })
})

/** The delegate's session id: the prefix of its cards' wire ids (`<child id>/<call id>`). */
function childIdOf(updates: readonly SessionUpdate[]): string | undefined {
  for (const update of updates) {
    if (update.sessionUpdate === 'tool_call' && update.toolCallId.includes('/')) {
      return update.toolCallId.split('/')[0]
    }
  }
  return undefined
}
