// Long sessions over the BUILT bin's real stdio against an OpenAI-compatible server on
// 127.0.0.1 that reports usage and refuses requests over its window (./helpers/model-server):
// thirty large reads in one turn never overflow it; usage_update follows each response;
// compactions show as compaction updates or as a message, by the client's capability; /compact
// is offered and works, and a loaded session sends the compacted conversation next; the model
// is a session option whose switch reaches the server and survives a load; a keyless server
// gets no Authorization header and its /models list becomes the option; a too-long refusal is
// recovered. Every frame either side wrote is checked against the ACP schema.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type * as acp from '@agentclientprotocol/sdk'
import { HarnessClient, assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { tempDirs } from './helpers/temp-dirs'
import { startModelServer } from './helpers/model-server'
import type { ModelAnswer, ModelServer } from './helpers/model-server'
import { envWithoutKey, startBin } from './helpers/spawn-bin'

const tempDir = tempDirs('dsh-long')

beforeAll(() => ensureBuilt(), 420_000)
/** A workspace of `count` files of 150 lines each (about 2,500 of the server's tokens). */
async function workspaceOf(count: number): Promise<string> {
  const dir = await tempDir('work')
  for (let i = 1; i <= count; i += 1) {
    const lines = Array.from(
      { length: 150 },
      (_, n) => `export const value${n} = 'file ${i}, line ${n + 1}, some text'`,
    )
    await writeFile(join(dir, `f${i}.ts`), `${lines.join('\n')}\n`)
  }
  return dir
}

/** Reads f1.ts … f{count}.ts, one per response, then answers. */
const reads =
  (count: number) =>
  (index: number): ModelAnswer =>
    index < count
      ? { calls: [{ name: 'read', arguments: { file_path: `f${index + 1}.ts` } }] }
      : { text: `All ${count} files read.` }

interface Opened {
  client: HarnessClient
  agent: HarnessClient['connection']['agent']
  updates(): acp.SessionUpdate[]
  close(): Promise<void>
}

async function openBin(
  args: string[],
  capabilities: acp.ClientCapabilities = {},
  env = envWithoutKey(),
): Promise<Opened> {
  const bin = startBin(['--mode', 'full-access', ...args], await tempDir('home'), env)
  const client = new HarnessClient(bin.stream)
  const agent = client.connection.agent
  await agent.request('initialize', { protocolVersion: 1, clientCapabilities: capabilities })
  return {
    client,
    agent,
    updates: () => client.updates.map((n) => n.update),
    async close() {
      client.connection.close()
      bin.child.stdin.end()
      expect(await bin.exited).toBe(0)
      assertAgentFramesValid(bin.frames)
    },
  }
}

const prompt = (agent: Opened['agent'], sessionId: string, text: string) =>
  agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })

const messageText = (updates: acp.SessionUpdate[]) =>
  updates
    .map((u) =>
      u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : '',
    )
    .join('')

const ofKind = <K extends acp.SessionUpdate['sessionUpdate']>(
  updates: acp.SessionUpdate[],
  kind: K,
) =>
  updates.filter(
    (u): u is Extract<acp.SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind,
  )

describe('thirty large reads in one turn', () => {
  let server: ModelServer
  afterAll(() => server?.close())

  it('never sends a request over the window, shows usage after each response and compactions as updates', async () => {
    server = await startModelServer({ window: 16_000, next: reads(30) })
    const workspace = await workspaceOf(30)
    const bin = await openBin(['--base-url', server.url, '--context-window', '16000'], {
      session: { compaction: {} },
    })
    const { sessionId } = await bin.agent.request('session/new', { cwd: workspace, mcpServers: [] })
    const { stopReason } = await prompt(bin.agent, sessionId, 'Read all thirty files.')
    await bin.close()
    expect(stopReason).toBe('end_turn')
    expect(server.requests.filter((r) => r.refused)).toEqual([])
    expect(Math.max(...server.requests.map((r) => r.tokens))).toBeLessThanOrEqual(16_000)
    const updates = bin.updates()
    expect(messageText(updates)).toContain('All 30 files read.')
    const usage = ofKind(updates, 'usage_update')
    const answered = server.requests.filter((r) => !r.summary)
    expect(usage).toHaveLength(answered.length)
    for (const [index, update] of usage.entries()) {
      expect(update.size).toBe(16_000)
      expect(update.used).toBe(answered[index]!.tokens + 20)
      expect(update.cost?.currency).toBe('USD')
    }
    expect(usage.at(-1)!.cost!.amount).toBeGreaterThan(usage[0]!.cost!.amount)
    const compactions = ofKind(updates, 'compaction_update')
    expect(compactions.length).toBeGreaterThan(1)
    expect(compactions[0]!.status).toBe('in_progress')
    expect(compactions[1]).toMatchObject({
      compactionId: compactions[0]!.compactionId,
      status: 'completed',
    })
    expect(messageText(updates)).not.toContain('Context compacted')
    expect(ofKind(updates, 'available_commands_update')[0]!.availableCommands).toEqual([
      expect.objectContaining({ name: 'compact' }),
      expect.objectContaining({ name: 'plan' }),
    ])
  }, 120_000)

  it('without the client capability a compaction is one short agent message', async () => {
    server = await startModelServer({ window: 16_000, next: reads(10) })
    const workspace = await workspaceOf(10)
    const bin = await openBin(['--base-url', server.url, '--context-window', '16000'])
    const { sessionId } = await bin.agent.request('session/new', { cwd: workspace, mcpServers: [] })
    expect((await prompt(bin.agent, sessionId, 'Read ten files.')).stopReason).toBe('end_turn')
    await bin.close()
    const updates = bin.updates()
    expect(ofKind(updates, 'compaction_update')).toEqual([])
    expect(ofKind(updates, 'compaction_summary_chunk')).toEqual([])
    expect(messageText(updates)).toMatch(/Context compacted: \d+ tool outputs? elided/)
    expect(server.requests.filter((r) => r.refused)).toEqual([])
  }, 120_000)
})

describe('/compact and a loaded session', () => {
  it('/compact summarises on demand, and the loaded session sends the compacted conversation next', async () => {
    const server = await startModelServer({
      window: 100_000,
      next: (i) => (i < 3 ? reads(3)(i) : { text: 'Going on.' }),
    })
    try {
      const workspace = await workspaceOf(3)
      const store = await tempDir('store')
      const args = ['--base-url', server.url, '--sessions', store]
      const first = await openBin(args, { session: { compaction: {} } })
      const { sessionId } = await first.agent.request('session/new', {
        cwd: workspace,
        mcpServers: [],
      })
      await prompt(first.agent, sessionId, 'Read three files.')
      expect((await prompt(first.agent, sessionId, '/compact')).stopReason).toBe('end_turn')
      await first.close()
      const summary = ofKind(first.updates(), 'compaction_summary_chunk')
      expect(summary).toHaveLength(1)
      expect(summary[0]!.content).toEqual({
        type: 'text',
        text: expect.stringContaining('messages summarised'),
      })
      expect(server.requests.filter((r) => r.summary)).toHaveLength(1)

      const second = await openBin(args, { session: { compaction: {} } })
      await second.agent.request('session/load', { sessionId, cwd: workspace, mcpServers: [] })
      // The replay shows the compaction as it went, summary included.
      expect(ofKind(second.updates(), 'compaction_summary_chunk')).toEqual(summary)
      await prompt(second.agent, sessionId, 'Go on.')
      await second.close()
      const next = server.requests.at(-1)!.body.messages
      expect(next[1]).toMatchObject({ role: 'user' })
      expect(next[1]!.content).toMatch(
        /^Read three files\.\n\n\[The earlier conversation, summarised to save context\]\n- the person asked/,
      )
      // The first read was summarised; the last steps (two reads and the answer) stay whole.
      expect(next.filter((m) => m.role === 'tool')).toHaveLength(2)
      expect(JSON.stringify(next.slice(2))).not.toContain('f1.ts')
      expect(next.at(-1)).toEqual({ role: 'user', content: 'Go on.' })
    } finally {
      await server.close()
    }
  }, 120_000)
})

describe('the model as a session option, on a keyless server', () => {
  it('lists the server models, sends no Authorization header, switches and keeps the model across a load', async () => {
    const server = await startModelServer({
      window: 100_000,
      models: ['local-a', 'local-b'],
      next: () => ({ text: 'Hi.' }),
    })
    try {
      const workspace = await workspaceOf(0)
      const store = await tempDir('store')
      const args = ['--base-url', server.url, '--model', 'local-a', '--sessions', store]
      const first = await openBin(args)
      const created = await first.agent.request('session/new', { cwd: workspace, mcpServers: [] })
      const { sessionId } = created
      const option = {
        id: 'model',
        name: 'Model',
        category: 'model',
        type: 'select',
        options: [
          { value: 'local-a', name: 'local-a' },
          { value: 'local-b', name: 'local-b' },
        ],
      }
      const modelOf = <T extends { id: string }>(options: readonly T[] | null | undefined) =>
        options?.find((entry) => entry.id === 'model')
      expect(modelOf(created.configOptions)).toEqual(
        expect.objectContaining({ ...option, currentValue: 'local-a' }),
      )
      const refused = await first.agent
        .request('session/set_config_option', { sessionId, configId: 'model', value: 'gpt-nope' })
        .catch((error: unknown) => error)
      expect(refused).toMatchObject({
        code: -32602,
        message: expect.stringContaining('the models are: local-a, local-b'),
      })
      const set = await first.agent.request('session/set_config_option', {
        sessionId,
        configId: 'model',
        value: 'local-b',
      })
      expect(modelOf(set.configOptions)).toEqual(
        expect.objectContaining({ ...option, currentValue: 'local-b' }),
      )
      await prompt(first.agent, sessionId, 'Hello.')
      await first.close()
      expect(
        ofKind(first.updates(), 'config_option_update').map(
          (u) => modelOf(u.configOptions)!.currentValue,
        ),
      ).toEqual(['local-b'])
      expect(server.requests.at(-1)!.body.model).toBe('local-b')

      const second = await openBin(args)
      const loaded = await second.agent.request('session/load', {
        sessionId,
        cwd: workspace,
        mcpServers: [],
      })
      expect(modelOf(loaded.configOptions)).toEqual(
        expect.objectContaining({ currentValue: 'local-b' }),
      )
      await prompt(second.agent, sessionId, 'Again.')
      await second.close()
      expect(server.requests.at(-1)!.body.model).toBe('local-b')
      expect(server.listed.length).toBeGreaterThan(0)
      for (const headers of [...server.listed, ...server.requests.map((r) => r.headers)]) {
        expect(headers.authorization).toBeUndefined()
      }
    } finally {
      await server.close()
    }
  }, 120_000)
})

describe('a server that counts more than the agent', () => {
  it('a too-long refusal is compacted harder and sent once more, and the turn ends with the answer', async () => {
    const server = await startModelServer({ window: 12_000, next: reads(8) })
    try {
      const workspace = await workspaceOf(8)
      const bin = await openBin(['--base-url', server.url, '--context-window', '20000'])
      const { sessionId } = await bin.agent.request('session/new', {
        cwd: workspace,
        mcpServers: [],
      })
      const { stopReason } = await prompt(bin.agent, sessionId, 'Read eight files.')
      await bin.close()
      expect(stopReason).toBe('end_turn')
      const refused = server.requests.flatMap((r, i) => (r.refused ? [i] : []))
      expect(refused.length).toBeGreaterThan(0)
      // Each refusal is followed by the summary request or the retried request, which pass.
      for (const index of refused)
        expect(server.requests.slice(index + 1).some((r) => !r.refused)).toBe(true)
      expect(messageText(bin.updates())).toContain('All 8 files read.')
    } finally {
      await server.close()
    }
  }, 120_000)
})
