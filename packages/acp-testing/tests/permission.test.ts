// Asking before a change, over the real SDK client with the real fs tools: the card opens
// `pending` with the diff of exactly what the call would do, the client is asked with the
// options in order, and its answer — allow, always allow, reject, cancel — is what happens.
// The session's mode and its roots decide what is asked at all.
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RequestError } from '@agentclientprotocol/sdk'
import type { RequestPermissionResponse, SessionUpdate } from '@agentclientprotocol/sdk'
import type { SessionEvent } from '@deepseek-ai/dsh-agent'
import { afterEach, describe, expect, it } from 'vitest'
import { choose } from '../src/client'
import type { AcpHarness } from '../src/harness'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

const outsideDirs: string[] = []
afterEach(async () => {
  await Promise.all(outsideDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function outsideDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-outside-')))
  outsideDirs.push(dir)
  return dir
}

type Call = { id: string; name: string; arguments: Record<string, unknown> }
const script = (...calls: Call[]) => ({
  turns: [...calls.map((call) => ({ toolCalls: [call] })), { text: 'Done.' }],
})
const write = (id: string, file_path: string, content: string): Call => ({
  id,
  name: 'write',
  arguments: { file_path, content },
})
const read = (id: string, file_path: string): Call => ({
  id,
  name: 'read',
  arguments: { file_path },
})
const edit = (id: string, file_path: string, old_string: string, new_string: string): Call => ({
  id,
  name: 'edit',
  arguments: { file_path, old_string, new_string },
})

type CardUpdate = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>

/** Every update about one card, in order. */
function cardOf(updates: readonly SessionUpdate[], toolCallId: string): CardUpdate[] {
  return updates.filter(
    (update): update is CardUpdate =>
      (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') &&
      update.toolCallId === toolCallId,
  )
}

/** The tool result the model got for a call, from the agent's own log. */
function resultOf(harness: AcpHarness, sessionId: string, callId: string) {
  const events = harness.ctx.agents.get(sessionId)?.session.events ?? []
  return events.find(
    (event): event is Extract<SessionEvent, { type: 'tool/result' }> =>
      event.type === 'tool/result' && event.callId === callId,
  )
}

describe('asking before a write', () => {
  it('opens the card pending with the diff, asks with the options in order, and writes once allowed', async () => {
    const harness = await makeHarness({
      withFs: true,
      script: script(write('w1', 'new.md', '# A\n')),
    })
    const sessionId = await harness.newSession()
    expect(await harness.prompt(sessionId, 'write it')).toEqual({ stopReason: 'end_turn' })
    const file = join(harness.workspace, 'new.md')
    const card = cardOf(harness.updatesOf(sessionId), 'w1')
    expect(card.map((update) => update.status)).toEqual(['pending', 'in_progress', 'completed'])
    expect(card[0]).toMatchObject({
      sessionUpdate: 'tool_call',
      title: 'Write new.md',
      kind: 'edit',
      locations: [{ path: file }],
    })
    expect(card[0]?.content).toContainEqual({
      type: 'diff',
      path: file,
      oldText: null,
      newText: '# A\n',
    })
    // The request stands alone: it carries the pending card as the client was shown it.
    const { sessionUpdate: _update, ...shown } = card[0]!
    expect(harness.permissionRequests[0]?.toolCall).toEqual(shown)
    expect(harness.permissionRequests).toEqual([
      {
        sessionId,
        toolCall: {
          toolCallId: 'w1',
          title: 'Write new.md',
          name: 'write',
          kind: 'edit',
          status: 'pending',
          rawInput: { file_path: 'new.md', content: '# A\n' },
          content: [{ type: 'diff', path: file, oldText: null, newText: '# A\n' }],
          locations: [{ path: file }],
        },
        options: [
          { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
          {
            optionId: 'allow_always',
            name: 'Always allow write in this session',
            kind: 'allow_always',
          },
          { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
        ],
      },
    ])
    expect(await readFile(file, 'utf8')).toBe('# A\n')
  })

  it('shows an overwrite as the current text against the new one', async () => {
    const harness = await makeHarness({
      withFs: true,
      script: script(read('r1', 'a.txt'), write('w1', 'a.txt', 'new\n')),
    })
    await writeFile(join(harness.workspace, 'a.txt'), 'old\n')
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'rewrite it')
    const [opening] = cardOf(harness.updatesOf(sessionId), 'w1')
    expect(opening?.content).toContainEqual({
      type: 'diff',
      path: join(harness.workspace, 'a.txt'),
      oldText: 'old\n',
      newText: 'new\n',
    })
    expect(harness.permissionRequests).toHaveLength(1) // the read inside the workspace was not asked
  })

  it('shows an edit as the hunk the replacement would produce', async () => {
    const harness = await makeHarness({
      withFs: true,
      script: script(read('r1', 'a.txt'), edit('e1', 'a.txt', 'two', 'TWO')),
    })
    await writeFile(join(harness.workspace, 'a.txt'), 'one\ntwo\nthree\n')
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'edit it')
    const [opening] = cardOf(harness.updatesOf(sessionId), 'e1')
    expect(opening).toMatchObject({ sessionUpdate: 'tool_call', status: 'pending' })
    expect(opening?.content).toContainEqual({
      type: 'diff',
      path: join(harness.workspace, 'a.txt'),
      oldText: 'one\ntwo\nthree\n',
      newText: 'one\nTWO\nthree\n',
    })
    expect(await readFile(join(harness.workspace, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n')
  })
})

describe('the answers', () => {
  it('always allow runs later calls of that tool inside the roots without asking', async () => {
    const harness = await makeHarness({
      withFs: true,
      answer: choose('allow_always'),
      script: script(write('w1', 'a.txt', 'a'), write('w2', 'b.txt', 'b')),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'write both')
    expect(harness.permissionRequests.map((request) => request.toolCall.toolCallId)).toEqual(['w1'])
    expect(cardOf(harness.updatesOf(sessionId), 'w2').map((update) => update.status)).toEqual([
      'in_progress',
      'completed',
    ])
    expect(await readFile(join(harness.workspace, 'b.txt'), 'utf8')).toBe('b')
  })

  it('a rejected write leaves the file byte-identical and tells the model not to retry', async () => {
    const harness = await makeHarness({
      withFs: true,
      answer: choose('reject_once'),
      script: script(read('r1', 'a.txt'), write('w1', 'a.txt', 'theirs\n')),
    })
    await writeFile(join(harness.workspace, 'a.txt'), 'mine\r\n')
    const sessionId = await harness.newSession()
    expect(await harness.prompt(sessionId, 'overwrite')).toEqual({ stopReason: 'end_turn' })
    expect(await readFile(join(harness.workspace, 'a.txt'), 'utf8')).toBe('mine\r\n')
    const card = cardOf(harness.updatesOf(sessionId), 'w1')
    expect(card.map((update) => update.status)).toEqual(['pending', 'failed'])
    expect(card.at(-1)).toMatchObject({
      rawOutput: { error: { name: 'PermissionError', code: 'PERMISSION_REJECTED' } },
    })
    // The card says what happened to the person; the model's words (never retry) stay its own.
    expect(card.at(-1)?.content).toEqual([
      { type: 'content', content: { type: 'text', text: 'Rejected: not run.' } },
    ])
    const result = resultOf(harness, sessionId, 'w1')
    expect(result?.error).toMatchObject({ name: 'PermissionError', code: 'PERMISSION_REJECTED' })
    expect(result?.content[0]?.text).toMatch(/not retry/i)
  })

  it('cancelling the prompt while the question is open settles it cancelled and changes nothing', async () => {
    let asked = (): void => undefined
    const question = new Promise<void>((resolve) => (asked = resolve))
    const harness = await makeHarness({
      withFs: true,
      // A person who never answers: the request stays open until it is cancelled.
      answer: () => {
        asked()
        return new Promise<RequestPermissionResponse>(() => undefined)
      },
      script: script(write('w1', 'a.txt', 'never')),
    })
    const sessionId = await harness.newSession()
    const prompt = harness.prompt(sessionId, 'write')
    await question
    await harness.cancel(sessionId)
    expect(await prompt).toEqual({ stopReason: 'cancelled' })
    const card = cardOf(harness.updatesOf(sessionId), 'w1')
    expect(card.map((update) => update.status)).toEqual(['pending', 'failed'])
    await expect(readFile(join(harness.workspace, 'a.txt'), 'utf8')).rejects.toThrow()
    const cancelRequest = await harness.waitForAgentFrame(
      (frame) => frame.method === '$/cancel_request',
    )
    expect(cancelRequest.message).toMatchObject({ params: { requestId: expect.anything() } })
  })

  it('a client answering cancelled cancels the prompt', async () => {
    const harness = await makeHarness({
      withFs: true,
      answer: () => ({ outcome: { outcome: 'cancelled' } }),
      script: script(write('w1', 'a.txt', 'never'), write('w2', 'b.txt', 'never')),
    })
    const sessionId = await harness.newSession()
    expect(await harness.prompt(sessionId, 'write')).toEqual({ stopReason: 'cancelled' })
    expect(cardOf(harness.updatesOf(sessionId), 'w1').at(-1)?.status).toBe('failed')
    expect(cardOf(harness.updatesOf(sessionId), 'w2')).toEqual([])
    expect(resultOf(harness, sessionId, 'w1')?.error?.code).toBe('PERMISSION_CANCELLED')
  })
})

describe('a client that cannot ask', () => {
  it('an error answer refuses that call with PERMISSION_DENIED and the turn goes on to end_turn', async () => {
    const harness = await makeHarness({
      withFs: true,
      answer: () => {
        throw new RequestError(-32603, 'no window to ask in')
      },
      script: {
        turns: [
          { toolCalls: [write('w1', 'a.txt', 'never')] },
          { toolCalls: [write('w2', 'b.txt', 'never either')] },
          { text: 'I could not write; please allow it.' },
        ],
      },
    })
    const sessionId = await harness.newSession()
    expect(await harness.prompt(sessionId, 'write')).toEqual({ stopReason: 'end_turn' })
    expect(harness.permissionRequests).toHaveLength(2)
    for (const id of ['w1', 'w2']) {
      const card = cardOf(harness.updatesOf(sessionId), id)
      expect(card.map((update) => update.status)).toEqual(['pending', 'failed'])
      expect(card.at(-1)).toMatchObject({
        rawOutput: { error: { name: 'PermissionError', code: 'PERMISSION_DENIED' } },
      })
    }
    const told = resultOf(harness, sessionId, 'w1')?.content[0]?.text ?? ''
    expect(told).toContain('The editor could not ask the person whether to allow "Write a.txt"')
    expect(told).toContain('error -32603: no window to ask in')
    const said = harness
      .updatesOf(sessionId)
      .flatMap((update) =>
        update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
          ? [update.content.text]
          : [],
      )
    expect(said.join('')).toBe('I could not write; please allow it.')
    await expect(readFile(join(harness.workspace, 'a.txt'), 'utf8')).rejects.toThrow()
    await expect(readFile(join(harness.workspace, 'b.txt'), 'utf8')).rejects.toThrow()
  })
})

describe('modes', () => {
  it('session/new offers the five modes, set_mode switches and sends both mode updates', async () => {
    const harness = await makeHarness({ withFs: true, script: script() })
    const response = await harness.agent.request('session/new', {
      cwd: harness.workspace,
      mcpServers: [],
    })
    expect(response.modes?.currentModeId).toBe('ask')
    expect(response.modes?.availableModes.map((mode) => [mode.id, mode.name])).toEqual([
      ['ask', 'Ask before edits'],
      ['auto-edit', 'Edit automatically'],
      ['read-only', 'Read only'],
      ['full-access', 'Full access'],
      ['plan', 'Plan'],
    ])
    await harness.setMode(response.sessionId, 'read-only')
    await harness.waitForUpdate(
      (n) =>
        n.sessionId === response.sessionId &&
        n.update.sessionUpdate === 'current_mode_update' &&
        n.update.currentModeId === 'read-only',
    )
    // The config options see the same change: the mode option's current value follows.
    await harness.waitForUpdate(
      (n) =>
        n.update.sessionUpdate === 'config_option_update' &&
        n.update.configOptions.some(
          (option) => option.id === 'mode' && option.currentValue === 'read-only',
        ),
    )
    expect(harness.ctx.agents.get(response.sessionId)?.session.header.mode).toBe('read-only')
  })

  it('set_mode refuses an unknown mode naming the valid ids, and an unknown session', async () => {
    const harness = await makeHarness({ withFs: true, script: script() })
    const sessionId = await harness.newSession()
    const unknownMode = await harness.setMode(sessionId, 'yolo').catch((error: unknown) => error)
    expect(unknownMode).toBeInstanceOf(RequestError)
    expect(unknownMode).toMatchObject({ code: -32602 })
    expect((unknownMode as Error).message).toContain('ask, auto-edit, read-only, full-access')
    const unknownSession = await harness.setMode('nope', 'ask').catch((error: unknown) => error)
    expect(unknownSession).toMatchObject({ code: -32002 })
  })

  it('read-only refuses an edit without asking, naming the mode', async () => {
    const harness = await makeHarness({
      withFs: true,
      mode: 'read-only',
      script: script(read('r1', 'a.txt'), edit('e1', 'a.txt', 'a', 'b')),
    })
    await writeFile(join(harness.workspace, 'a.txt'), 'a\n')
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'edit')
    expect(harness.permissionRequests).toEqual([])
    const card = cardOf(harness.updatesOf(sessionId), 'e1')
    expect(card.map((update) => update.status)).toEqual(['pending', 'failed'])
    expect(card.at(-1)).toMatchObject({ rawOutput: { error: { code: 'PERMISSION_DENIED' } } })
    expect(JSON.stringify(card.at(-1)?.content)).toContain('Read only')
    expect(await readFile(join(harness.workspace, 'a.txt'), 'utf8')).toBe('a\n')
  })

  it('a call that would fail anyway fails with its own error and asks nobody', async () => {
    const harness = await makeHarness({
      withFs: true,
      script: script(edit('e1', 'a.txt', 'a', 'b')),
    })
    await writeFile(join(harness.workspace, 'a.txt'), 'a\n')
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'edit unread')
    expect(harness.permissionRequests).toEqual([])
    expect(resultOf(harness, sessionId, 'e1')?.error?.code).toBe('FS_NOT_OBSERVED')
  })
})

describe('the workspace roots', () => {
  it('a write outside the roots is asked even in auto-edit, without always allow', async () => {
    const outside = await outsideDir()
    const target = join(outside, 'x.txt')
    const harness = await makeHarness({
      withFs: true,
      mode: 'auto-edit',
      script: script(write('w1', 'inside.txt', 'in'), write('w2', target, 'out')),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'write both')
    expect(harness.permissionRequests.map((request) => request.toolCall.toolCallId)).toEqual(['w2'])
    expect(harness.permissionRequests[0]?.options.map((option) => option.kind)).toEqual([
      'allow_once',
      'reject_once',
    ])
    expect(await readFile(target, 'utf8')).toBe('out')
  })

  it('a symlink inside the workspace that leads out of it is asked about in auto-edit', async () => {
    const outside = await outsideDir()
    const harness = await makeHarness({
      withFs: true,
      mode: 'auto-edit',
      answer: choose('reject_once'),
      script: script(write('w1', 'link/escape.txt', 'out')),
    })
    await symlink(outside, join(harness.workspace, 'link'))
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'write through the link')
    expect(harness.permissionRequests).toHaveLength(1)
    await expect(readFile(join(outside, 'escape.txt'), 'utf8')).rejects.toThrow()
  })

  it('an additional directory is inside the roots', async () => {
    const extra = await outsideDir()
    await mkdir(join(extra, 'docs'))
    const harness = await makeHarness({
      withFs: true,
      mode: 'auto-edit',
      script: script(write('w1', join(extra, 'docs/x.md'), 'x')),
    })
    const sessionId = await harness.newSession(harness.workspace, [extra])
    await harness.prompt(sessionId, 'write in the extra root')
    expect(harness.permissionRequests).toEqual([])
    expect(await readFile(join(extra, 'docs/x.md'), 'utf8')).toBe('x')
    expect(harness.ctx.agents.get(sessionId)?.session.header.roots).toEqual([
      harness.workspace,
      extra,
    ])
  })

  it('a relative additional directory is refused with -32602 naming it', async () => {
    const harness = await makeHarness({ withFs: true, script: script() })
    const refused = await harness
      .newSession(harness.workspace, ['docs'])
      .catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: -32602 })
    expect((refused as Error).message).toContain(
      'additionalDirectories[0] "docs" is a relative path',
    )
  })
})

describe('a client that goes away', () => {
  it('while a question is open, the turn ends and nothing is written', async () => {
    let asked = (): void => undefined
    const question = new Promise<void>((resolve) => (asked = resolve))
    const harness = await makeHarness({
      withFs: true,
      answer: () => {
        asked()
        return new Promise<RequestPermissionResponse>(() => undefined)
      },
      script: script(write('w1', 'a.txt', 'never')),
    })
    const sessionId = await harness.newSession()
    const agent = harness.ctx.agents.get(sessionId)
    void harness.prompt(sessionId, 'write').catch(() => undefined)
    await question
    await harness.disconnect()
    expect(agent?.running).toBe(false)
    expect(harness.ctx.agents.list()).toEqual([])
    const result = agent?.session.events.find(
      (event) => event.type === 'tool/result' && event.callId === 'w1',
    )
    expect(result).toMatchObject({ isError: true, error: { code: 'PERMISSION_CANCELLED' } })
    await expect(readFile(join(harness.workspace, 'a.txt'), 'utf8')).rejects.toThrow()
  })
})
