// Reads in one response run side by side, yet a person is asked about them one at a time:
// three reads outside the roots, each asked, never two questions open at once; each card
// opens when its call starts and every read lands.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk'
import { afterEach, expect, it } from 'vitest'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()
let outside = ''
afterEach(async () => {
  if (outside !== '') await rm(outside, { recursive: true, force: true })
  outside = ''
})

it('reads outside the roots in one response are asked about one at a time', async () => {
  outside = await realpath(await mkdtemp(join(tmpdir(), 'dsh-outside-')))
  for (const name of ['a', 'b', 'c']) await writeFile(join(outside, `${name}.txt`), `${name}\n`)
  let open = 0
  let peak = 0
  const answer = async (request: RequestPermissionRequest): Promise<RequestPermissionResponse> => {
    open += 1
    peak = Math.max(peak, open)
    await new Promise((resolve) => setTimeout(resolve, 20))
    open -= 1
    const allow = request.options.find((option) => option.kind === 'allow_once')!
    return { outcome: { outcome: 'selected', optionId: allow.optionId } }
  }
  const calls = ['a', 'b', 'c'].map((name) => ({
    id: `r${name}`,
    name: 'read',
    arguments: { file_path: join(outside, `${name}.txt`) },
  }))
  const harness = await makeHarness({
    withFs: true,
    answer,
    script: { turns: [{ toolCalls: calls }, { text: 'Read.' }] },
  })
  const sessionId = await harness.newSession()
  expect(await harness.prompt(sessionId, 'read the three')).toEqual({ stopReason: 'end_turn' })
  expect(peak).toBe(1)
  expect(harness.permissionRequests.map((r) => r.toolCall.toolCallId).sort()).toEqual([
    'ra',
    'rb',
    'rc',
  ])
  const finished = harness.updates
    .map((n) => n.update)
    .filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed')
  expect(finished).toHaveLength(3)
})

it('a question answered cancelled leaves the waiting ones unasked and cancels the prompt', async () => {
  outside = await realpath(await mkdtemp(join(tmpdir(), 'dsh-outside-')))
  for (const name of ['a', 'b', 'c']) await writeFile(join(outside, `${name}.txt`), `${name}\n`)
  const calls = ['a', 'b', 'c'].map((name) => ({
    id: `r${name}`,
    name: 'read',
    arguments: { file_path: join(outside, `${name}.txt`) },
  }))
  const harness = await makeHarness({
    withFs: true,
    answer: () => ({ outcome: { outcome: 'cancelled' } }),
    script: { turns: [{ toolCalls: calls }, { text: 'Read.' }] },
  })
  const sessionId = await harness.newSession()
  expect(await harness.prompt(sessionId, 'read the three')).toEqual({ stopReason: 'cancelled' })
  expect(harness.permissionRequests).toHaveLength(1)
})
