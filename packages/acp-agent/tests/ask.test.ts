// Questions to the person and plan mode over the BUILT bin's real stdio, with an SDK client that
// answers `elicitation/create` (or advertises no forms), against an OpenAI-compatible server on
// 127.0.0.1: ask_user's form, its answer reaching the model, decline and cancel; the tool absent
// without forms; plan mode entered by /plan and kept by session/load, a write refused while
// planning, the plan kept planning with feedback, then approved and a write run under the
// earlier mode. Every frame either bin wrote is checked against the ACP schema.
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import * as acp from '@agentclientprotocol/sdk'
import { assertAgentFramesValid, choose } from '@deepseek-ai/dsh-acp-testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { recordingServer, textAnswer, toolCallAnswer } from './helpers/recording-server'
import type { ModelServer } from './helpers/recording-server'
import { envWithoutKey, startBin } from './helpers/spawn-bin'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-ask')

beforeAll(() => ensureBuilt(), 420_000)

type FormAnswer = (
  params: acp.CreateElicitationRequest,
) => acp.CreateElicitationResponse | Promise<acp.CreateElicitationResponse>

/** A bin on `model` and a client that shows forms when `forms` answers them. */
async function open(model: ModelServer, store: string, forms?: FormAnswer) {
  const env = { ...envWithoutKey(), DEEPSEEK_API_KEY: 'sk-local-test' }
  const args = ['--base-url', model.url, '--sessions', store]
  const bin = startBin(args, await tempDir('home'), env)
  const updates: acp.SessionUpdate[] = []
  const asked: acp.CreateElicitationRequest[] = []
  const permissions: acp.RequestPermissionRequest[] = []
  const allow = choose('allow_once')
  let builder = acp
    .client()
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params.update)
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params)
      return allow(params)
    })
  if (forms) {
    builder = builder.onRequest(acp.methods.client.elicitation.create, ({ params }) => {
      asked.push(params)
      return forms(params)
    })
  }
  const connection = builder.connect(bin.stream)
  const agent = connection.agent
  await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: forms ? { elicitation: { form: {} } } : {},
  })
  const prompt = (sessionId: string, text: string) =>
    agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text }],
    })
  const close = async () => {
    connection.close()
    bin.child.stdin.end()
    expect(await bin.exited).toBe(0)
    assertAgentFramesValid(bin.frames)
  }
  return { agent, updates, asked, permissions, prompt, close }
}

const toolNames = (model: ModelServer, n: number) =>
  (model.bodies[n]?.tools ?? []).map((tool) => tool.function.name)
const lastTool = (model: ModelServer, n: number) =>
  model.bodies[n]?.messages.findLast((message) => message.role === 'tool')?.content ?? ''

const question = {
  questions: [{ question: 'Which design?', options: [{ label: 'A' }, { label: 'B' }] }],
}

describe('ask_user', () => {
  it('a form whose answer reaches the model; decline; a cancel ends the question and the turn', async () => {
    const model = await recordingServer([
      toolCallAnswer('q1', 'ask_user', question),
      textAnswer('B it is'),
      toolCallAnswer('q2', 'ask_user', question),
      textAnswer('fine'),
      toolCallAnswer('q3', 'ask_user', question),
    ])
    const answers: FormAnswer[] = [
      () => ({ action: 'accept', content: { q1: 'B', q1_other: 'with tests' } }),
      () => ({ action: 'decline' }),
      () => new Promise<acp.CreateElicitationResponse>(() => {}),
    ]
    try {
      const cwd = await tempDir('work')
      const client = await open(model, await tempDir('store'), (params) =>
        answers[Math.min(client.asked.length, answers.length) - 1]!(params),
      )
      const { sessionId } = await client.agent.request(acp.methods.agent.session.new, {
        cwd,
        mcpServers: [],
      })
      expect((await client.prompt(sessionId, 'design?')).stopReason).toBe('end_turn')
      expect(toolNames(model, 0)).toContain('ask_user')
      const form = client.asked[0]!
      expect(form).toMatchObject({
        sessionId,
        toolCallId: 'q1',
        mode: 'form',
        message: 'Which design?',
      })
      const { requestedSchema: schema } = form as { requestedSchema?: acp.ElicitationSchema }
      expect(schema?.properties?.q1).toMatchObject({
        type: 'string',
        oneOf: [
          { const: 'A', title: 'A' },
          { const: 'B', title: 'B' },
        ],
        default: 'A',
      })
      expect(lastTool(model, 1)).toContain('Which design? → B; in their words: with tests')

      await client.prompt(sessionId, 'again')
      expect(lastTool(model, 3)).toContain('declined')

      const third = client.prompt(sessionId, 'once more')
      await expect.poll(() => client.asked.length).toBe(3)
      await client.agent.notify(acp.methods.agent.session.cancel, { sessionId })
      expect((await third).stopReason).toBe('cancelled')
      expect(model.bodies).toHaveLength(5)
      await client.close()
    } finally {
      model.close()
    }
  })

  it('a form answered null reads as a cancelled question and the session goes on', async () => {
    const model = await recordingServer([
      toolCallAnswer('q1', 'ask_user', question),
      textAnswer('no answer then'),
      textAnswer('still here'),
    ])
    try {
      const cwd = await tempDir('work')
      const client = await open(
        model,
        await tempDir('store'),
        () => null as unknown as acp.CreateElicitationResponse,
      )
      const { sessionId } = await client.agent.request(acp.methods.agent.session.new, {
        cwd,
        mcpServers: [],
      })
      expect((await client.prompt(sessionId, 'design?')).stopReason).toBe('end_turn')
      expect(lastTool(model, 1)).toContain('cancelled the question')
      expect((await client.prompt(sessionId, 'and now?')).stopReason).toBe('end_turn')
      expect(model.bodies).toHaveLength(3)
      await client.close()
    } finally {
      model.close()
    }
  })

  it('a client without forms is never offered ask_user', async () => {
    const model = await recordingServer([textAnswer('hi')])
    try {
      const client = await open(model, await tempDir('store'))
      const { sessionId } = await client.agent.request(acp.methods.agent.session.new, {
        cwd: await tempDir('work'),
        mcpServers: [],
      })
      await client.prompt(sessionId, 'hello')
      expect(toolNames(model, 0)).not.toContain('ask_user')
      expect(toolNames(model, 0)).toContain('exit_plan_mode')
      await client.close()
    } finally {
      model.close()
    }
  })
})

describe('plan mode', () => {
  it('/plan, kept by load; a write refused; keep planning with feedback; approved, a write runs', async () => {
    const model = await recordingServer([
      toolCallAnswer('w1', 'write', { file_path: 'a.txt', content: 'x' }),
      toolCallAnswer('p1', 'exit_plan_mode', { plan: '- Write a.txt' }),
      toolCallAnswer('p2', 'exit_plan_mode', { plan: '- Write b.txt\n- Check it' }),
      toolCallAnswer('w2', 'write', { file_path: 'b.txt', content: 'y' }),
      textAnswer('done'),
    ])
    try {
      const cwd = await tempDir('work')
      const store = await tempDir('store')
      const first = await open(model, store)
      const { sessionId } = await first.agent.request(acp.methods.agent.session.new, {
        cwd,
        mcpServers: [],
      })
      expect((await first.prompt(sessionId, '/plan')).stopReason).toBe('end_turn')
      expect(first.updates).toContainEqual({
        sessionUpdate: 'current_mode_update',
        currentModeId: 'plan',
      })
      expect(model.bodies).toHaveLength(0)
      await first.close()

      const reviews: acp.CreateElicitationResponse[] = [
        { action: 'accept', content: { decision: 'keep', feedback: 'name it b' } },
        { action: 'accept', content: { decision: 'approve', mode: 'ask' } },
      ]
      const second = await open(model, store, () => reviews.shift()!)
      const loaded = await second.agent.request(acp.methods.agent.session.load, {
        sessionId,
        cwd,
        mcpServers: [],
      })
      expect(loaded.modes?.currentModeId).toBe('plan')
      expect(loaded.configOptions?.[0]).toMatchObject({ id: 'mode', currentValue: 'plan' })

      expect((await second.prompt(sessionId, 'Write the file')).stopReason).toBe('end_turn')
      expect(lastTool(model, 1)).toContain('the session is planning')
      expect(lastTool(model, 2)).toContain('stays in plan mode')
      expect(lastTool(model, 2)).toContain('name it b')
      expect(second.asked[0]!.message).toContain('- Write a.txt')
      expect(lastTool(model, 3)).toContain('approved the plan')
      await expect(stat(join(cwd, 'a.txt'))).rejects.toThrow()
      expect((await stat(join(cwd, 'b.txt'))).isFile()).toBe(true)
      expect(second.updates).toContainEqual({
        sessionUpdate: 'current_mode_update',
        currentModeId: 'ask',
      })
      const plan = second.updates.findLast((update) => update.sessionUpdate === 'plan')
      expect(plan).toMatchObject({
        entries: [{ content: 'Write b.txt' }, { content: 'Check it' }],
      })
      await second.close()
    } finally {
      model.close()
    }
  })

  it('without forms, from read-only: the options name each mode, and approval goes on where edits are asked', async () => {
    const model = await recordingServer([
      toolCallAnswer('p1', 'exit_plan_mode', { plan: '- Write a.txt' }),
      toolCallAnswer('w1', 'write', { file_path: 'a.txt', content: 'x' }),
      textAnswer('done'),
    ])
    try {
      const cwd = await tempDir('work')
      const client = await open(model, await tempDir('store'))
      const { sessionId } = await client.agent.request(acp.methods.agent.session.new, {
        cwd,
        mcpServers: [],
      })
      await client.agent.request(acp.methods.agent.session.setMode, {
        sessionId,
        modeId: 'read-only',
      })
      await client.prompt(sessionId, '/plan')
      expect((await client.prompt(sessionId, 'Write it')).stopReason).toBe('end_turn')
      const [review, write] = client.permissions
      expect(review!.options.map((option) => option.name)).toEqual([
        'Approve, ask before changes',
        'Approve, allow edits',
        'Keep planning',
      ])
      expect(lastTool(model, 1)).toContain('"Ask before edits" mode')
      // The plan's own write was asked in `ask`, never refused in read-only.
      expect(write!.toolCall.title).toBe('Write a.txt')
      expect((await stat(join(cwd, 'a.txt'))).isFile()).toBe(true)
      await client.close()
    } finally {
      model.close()
    }
  })
})
