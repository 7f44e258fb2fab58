// A waited task with the real OpenAI-compatible model (llm-openai) against a chat-completions
// server on 127.0.0.1 that tells the parent and the delegate apart by their system prompts:
// the parent asks for an explorer task; the delegate reads, greps and reports; the parent's
// next request holds the report as the task's result. The delegate's requests carry none of
// the parent's conversation; its tools are the session's; the task card grows while the
// delegate works (its last answer waits until the card shows the grep done). A delegate whose
// model fails gives an error result and the parent goes on; a cancel of the parent drops the
// delegate's model request and releases it. Several tasks in one response:
// ./task-side-by-side.test.ts. Every frame schema-valid.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { afterEach, describe, expect, it } from 'vitest'
import { isDelegate, nonSystem, taskOptions, toolResults } from './helpers/delegates'
import { useAcpHarness } from './helpers/harness'
import { ANSWER_USAGE, startModelServer } from './helpers/model-server'
import type { ModelAnswer, ModelServer, WireRequest } from './helpers/model-server'

const makeHarness = useAcpHarness()

const servers: ModelServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

const ASK = 'Where is the session loader defined? Use a delegate.'
const PROMPT = 'Find where loadSession is defined and report the file and line.'
const REPORT = 'loadSession is defined in src/load.ts, line 2.'

type CardUpdate = Extract<SessionUpdate, { sessionUpdate: 'tool_call_update' }>
/** The text of each update of card `id` with content, as `<status or -> <text>`. */
function cardTexts(updates: readonly SessionUpdate[], id: string): string[] {
  return updates.flatMap((update) =>
    update.sessionUpdate === 'tool_call_update' && update.toolCallId === id && update.content
      ? [`${update.status ?? '-'} ${textOf(update)}`]
      : [],
  )
}
function textOf(update: CardUpdate): string {
  return (update.content ?? [])
    .map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : ''))
    .join('|')
}

/** A harness with the file tools and the task tool against `server` (closed after the test). */
function withTasks(server: ModelServer) {
  servers.push(server)
  return makeHarness(taskOptions(server))
}

describe('a waited task against an OpenAI-compatible server', () => {
  it('the delegate reads, greps and reports in a fresh conversation; the report is the parent’s next tool result', async () => {
    // Set once the harness is up: the delegate's report waits until the task card shows the
    // grep done, so the card's growth is seen while the task is still running.
    let cardShowsGrep: () => Promise<unknown> = async () => undefined
    const server = await startModelServer(async (request): Promise<ModelAnswer> => {
      const results = toolResults(request)
      if (!isDelegate(request)) {
        if (results.length === 0) {
          const args = { description: 'find the loader', prompt: PROMPT, agent_type: 'explorer' }
          return {
            text: 'Delegating.',
            calls: [{ id: 'call_task', name: 'task', arguments: args }],
          }
        }
        return { text: 'The loader is in src/load.ts.' }
      }
      if (results.length === 0) {
        return {
          calls: [{ id: 'call_read', name: 'read', arguments: { file_path: 'src/load.ts' } }],
        }
      }
      if (results.length === 1) {
        const grep = { pattern: 'loadSession', output_mode: 'content' }
        return { calls: [{ id: 'call_grep', name: 'grep', arguments: grep }] }
      }
      await cardShowsGrep()
      return { text: REPORT }
    })
    const harness = await withTasks(server)
    await mkdir(join(harness.workspace, 'src'))
    await writeFile(
      join(harness.workspace, 'src', 'load.ts'),
      '// The loader.\nexport function loadSession(id: string) {\n  return id\n}\n',
    )
    await writeFile(
      join(harness.workspace, 'src', 'use.ts'),
      "import { loadSession } from './load'\n",
    )
    const sessionId = await harness.newSession()
    cardShowsGrep = () =>
      harness.waitForUpdate(
        (n) =>
          n.sessionId === sessionId &&
          n.update.sessionUpdate === 'tool_call_update' &&
          n.update.toolCallId === 'call_task' &&
          n.update.status !== 'completed' &&
          textOf(n.update) === '✓ Read src/load.ts\n✓ Search loadSession',
      )

    expect((await harness.prompt(sessionId, ASK)).stopReason).toBe('end_turn')

    const parent = server.requests.filter((r) => !isDelegate(r))
    const child = server.requests.filter(isDelegate)
    expect(parent).toHaveLength(2)
    expect(child).toHaveLength(3)
    // The delegate's conversation is its own: the prompt, then its own calls and their results;
    // no parent message, no parent call.
    expect(nonSystem(child[0]!)).toEqual([{ role: 'user', content: PROMPT }])
    for (const request of child) {
      const text = JSON.stringify(nonSystem(request))
      expect(text).not.toContain(ASK)
      expect(text).not.toContain('Delegating.')
      expect(text).not.toContain('call_task')
    }
    expect(child[0]!.messages[0]!.content).toContain('You only read')
    expect(child[2]!.messages.map((m) => m.tool_calls?.[0]?.function.name ?? m.role)).toEqual([
      'system',
      'user',
      'read',
      'tool',
      'grep',
      'tool',
    ])
    // Real tools ran: the file's line, then ripgrep's matches in both files.
    expect(toolResults(child[1]!)[0]!.content).toContain('export function loadSession')
    const grepped = toolResults(child[2]!)[1]!.content!
    expect(grepped).toContain('src/load.ts')
    expect(grepped).toContain('src/use.ts')
    // An explorer is given the session's tools (its changes are refused when called).
    const names = (request: WireRequest) => (request.tools ?? []).map((t) => t.function.name).sort()
    expect(names(child[0]!)).toEqual(names(parent[0]!))
    expect(names(child[0]!)).toEqual(expect.arrayContaining(['read', 'grep', 'glob', 'task']))

    // The parent's next request carries the report as the task call's result.
    const [taskResult] = toolResults(parent[1]!)
    expect(taskResult).toEqual({ role: 'tool', tool_call_id: 'call_task', content: REPORT })

    // The task card grew while the delegate worked, then closed with its lines and the report.
    const updates = harness.updatesOf(sessionId)
    const texts = cardTexts(updates, 'call_task')
    expect(texts).toEqual([
      '- … Read src/load.ts',
      '- ✓ Read src/load.ts',
      '- ✓ Read src/load.ts\n… Search loadSession',
      '- ✓ Read src/load.ts\n✓ Search loadSession',
      `completed ✓ Read src/load.ts\n✓ Search loadSession\n\n${REPORT}`,
    ])
    // The delegate's cards reached the parent's session, each naming the task's card.
    const childCards = updates.filter(
      (u) =>
        (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') &&
        u.toolCallId !== 'call_task',
    )
    expect(childCards.filter((u) => u.sessionUpdate === 'tool_call')).toHaveLength(2)
    for (const card of childCards)
      expect(card._meta).toEqual({ dsh: { parentToolCallId: 'call_task' } })

    // Five answers of 1000 in and 100 out at 1 and 10 USD per million: the session's cost
    // holds the delegate's three with the parent's two.
    const costs = updates.flatMap((u) => (u.sessionUpdate === 'usage_update' ? [u.cost] : []))
    const each = (ANSWER_USAGE.prompt_tokens * 1 + ANSWER_USAGE.completion_tokens * 10) / 1e6
    expect(costs.at(-1)).toEqual({ currency: 'USD', amount: expect.closeTo(5 * each, 12) })
  })

  it("a delegate whose model fails gives the parent an error result, and the parent's turn goes on", async () => {
    const server = await startModelServer((request): ModelAnswer => {
      const results = toolResults(request)
      if (!isDelegate(request)) {
        if (results.length > 0) return { text: 'The delegate failed; I will look myself.' }
        const args = { description: 'look', prompt: 'Read notes.md.', agent_type: 'explorer' }
        return { calls: [{ id: 'call_task', name: 'task', arguments: args }] }
      }
      if (results.length > 0) throw new Error('the model fell over')
      return { calls: [{ id: 'call_read', name: 'read', arguments: { file_path: 'notes.md' } }] }
    })
    const harness = await withTasks(server)
    await writeFile(join(harness.workspace, 'notes.md'), 'notes\n')
    const sessionId = await harness.newSession()
    expect((await harness.prompt(sessionId, 'Look.')).stopReason).toBe('end_turn')
    const [result] = toolResults(server.requests.at(-1)!)
    expect(result!.tool_call_id).toBe('call_task')
    expect(result!.content).toMatch(/^The delegate did not finish \(error: .*the model fell over/)
    const taskEnd = harness
      .updatesOf(sessionId)
      .findLast((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'call_task')
    expect(taskEnd).toMatchObject({ status: 'failed' })
  })

  it('session/cancel of the parent ends the waited delegate: its model request is dropped and it is released', async () => {
    const server = await startModelServer(async (request, gone): Promise<ModelAnswer> => {
      if (!isDelegate(request)) {
        const args = { description: 'look', prompt: 'Read notes.md.', agent_type: 'explorer' }
        return { calls: [{ id: 'call_task', name: 'task', arguments: args }] }
      }
      // The delegate's model never answers: only the cancel ends its request.
      await gone
      return { text: 'never sent' }
    })
    const harness = await withTasks(server)
    const sessionId = await harness.newSession()
    const children: Agent[] = []
    harness.ctx.agents.get(sessionId)!.onChild((child) => children.push(child))
    const prompt = harness.prompt(sessionId, 'Look.')
    await expect.poll(() => server.requests.filter(isDelegate).length).toBe(1)
    expect(children.map((child) => child.disposed)).toEqual([false])
    await harness.cancel(sessionId)
    expect(await prompt).toEqual({ stopReason: 'cancelled' })
    await expect.poll(() => server.dropped()).toBe(1)
    expect(children[0]!.disposed).toBe(true)
    const taskEnd = harness
      .updatesOf(sessionId)
      .findLast((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'call_task')
    expect(taskEnd).toMatchObject({ status: 'failed' })
  })
})
