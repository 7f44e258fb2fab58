// Plan approval for a client without forms: the permission question's options name the mode
// each goes on in, approval never goes on silently in a mode that refuses the plan's own work
// (read-only), and "Keep planning" keeps planning; checked from every mode a session can enter
// plan mode from, and from a session that started in plan mode.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { RequestPermissionRequest, SessionUpdate } from '@agentclientprotocol/sdk'
import type { SessionEvent } from '@deepseek-ai/dsh-agent'
import { describe, expect, it } from 'vitest'
import type { AcpHarness } from '../src/harness'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

const script = {
  turns: [
    { toolCalls: [{ id: 'p1', name: 'exit_plan_mode', arguments: { plan: '- Write a.txt' } }] },
    { toolCalls: [{ id: 'w1', name: 'write', arguments: { file_path: 'a.txt', content: 'x' } }] },
    { text: 'Done.' },
  ],
}

const ASK = 'Approve, ask before changes'
const EDITS = 'Approve, allow edits'
const FULL = 'Approve, full access'
const KEEP = 'Keep planning'

/** Answers the plan's question with the option named `pick`, and allows anything else. */
function answering(pick: string) {
  return (request: RequestPermissionRequest) => {
    const named = request.options.find((option) => option.name === pick)
    const allow = request.options.find((option) => option.kind === 'allow_once')
    const option = request.toolCall.title === 'Review the plan' ? named : allow
    return option
      ? { outcome: { outcome: 'selected' as const, optionId: option.optionId } }
      : { outcome: { outcome: 'cancelled' as const } }
  }
}

function resultText(harness: AcpHarness, sessionId: string, callId: string): string {
  const events = harness.ctx.agents.get(sessionId)?.session.events ?? []
  const result = events.find(
    (event): event is Extract<SessionEvent, { type: 'tool/result' }> =>
      event.type === 'tool/result' && event.callId === callId,
  )
  return result?.content.map((block) => block.text).join('') ?? ''
}

const modeUpdates = (updates: readonly SessionUpdate[]) =>
  updates.flatMap((update) =>
    update.sessionUpdate === 'current_mode_update' ? [update.currentModeId] : [],
  )

type Start = 'ask' | 'auto-edit' | 'read-only' | 'full-access' | 'plan'

async function planFrom(start: Start, pick: string) {
  const harness = await makeHarness({ withFs: true, withAsk: true, mode: start, script })
  harness.answerWith(answering(pick))
  const sessionId = await harness.newSession()
  // The session's ask tools are registered once its opening was answered.
  await expect.poll(() => harness.ctx.tools.get('exit_plan_mode', sessionId)?.name).toBeTruthy()
  if (start !== 'plan') await harness.setMode(sessionId, 'plan')
  expect(await harness.prompt(sessionId, 'plan it')).toEqual({ stopReason: 'end_turn' })
  const question = harness.permissionRequests[0]!
  return { harness, sessionId, question, names: question.options.map((option) => option.name) }
}

describe('approving a plan without forms', () => {
  it.each([
    ['ask', [ASK, EDITS, KEEP], 'ask'],
    ['auto-edit', [EDITS, ASK, KEEP], 'auto-edit'],
    ['read-only', [ASK, EDITS, KEEP], 'ask'],
    ['full-access', [FULL, ASK, EDITS, KEEP], 'full-access'],
    ['plan', [ASK, EDITS, KEEP], 'ask'],
  ] as const)(
    'from %s the options name each mode and the first goes on where the work can run',
    async (start, options, mode) => {
      const { harness, sessionId, question, names } = await planFrom(start, options[0]!)
      expect(names).toEqual([...options])
      expect(question.options.map((option) => option.kind).at(-1)).toBe('reject_once')
      expect(names.every((name) => name.length < 80 && !name.includes('`'))).toBe(true)
      expect(question.toolCall.content).toContainEqual({
        type: 'content',
        content: { type: 'text', text: '- Write a.txt' },
      })
      expect(modeUpdates(harness.updatesOf(sessionId)).at(-1)).toBe(mode)
      expect(resultText(harness, sessionId, 'p1')).toContain('approved the plan')
      expect(await readFile(join(harness.workspace, 'a.txt'), 'utf8')).toBe('x')
    },
  )

  it('from read-only, allowing edits goes on in the mode that was picked', async () => {
    const { harness, sessionId } = await planFrom('read-only', EDITS)
    expect(modeUpdates(harness.updatesOf(sessionId)).at(-1)).toBe('auto-edit')
    expect(resultText(harness, sessionId, 'p1')).toContain('"Edit automatically" mode')
    // The write ran unasked: the only question was the plan's.
    expect(harness.permissionRequests).toHaveLength(1)
  })

  it('keep planning leaves the session in plan mode and the write refused', async () => {
    const { harness, sessionId } = await planFrom('auto-edit', KEEP)
    expect(modeUpdates(harness.updatesOf(sessionId)).at(-1)).toBe('plan')
    expect(resultText(harness, sessionId, 'p1')).toContain('stays in plan mode')
    expect(resultText(harness, sessionId, 'w1')).toContain('the session is planning')
  })
})
