// A session's own tools: the model request waits for those still arriving (ctx.tools.hold)
// and then lists them with the session's own prompt sections; a cancel ends the wait.
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import { defineTool } from '@deepseek-ai/dsh-tools'
import { createHost } from './helpers/host'
import type { Host } from './helpers/host'

const hosts: Host[] = []
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.cleanup()))
})

const late = defineTool({
  name: 'late',
  description: 'Arrives late.',
  input: z.object({}),
  execute: async () => 'here',
})

async function host(turns: LlmScript['turns'] = [{ text: 'Hi.' }]): Promise<Host> {
  const made = await createHost({ script: { turns } })
  hosts.push(made)
  return made
}

describe('tools of one session', () => {
  it('the model request waits for the session tools and offers them with its section', async () => {
    const made = await host()
    const agent = made.agents.create({ cwd: made.dir })
    const id = agent.session.header.id
    let arrive = () => {}
    made.ctx.tools.hold(id, new Promise<void>((resolve) => (arrive = resolve)))
    const turn = agent.send('hello')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(made.requests()).toEqual([])
    made.ctx.tools.register(late, { session: id })
    made.ctx.systemPrompt.add({ name: 'own', text: 'Own section.' }, { session: id })
    arrive()
    expect((await turn).reason).toBe('completed')
    const [request] = made.requests()
    expect(request?.tools.map((tool) => tool.name)).toEqual(['late'])
    expect(request?.system).toContain('Own section.')
    const other = made.agents.create({ cwd: made.dir })
    await other.send('hello')
    expect(made.requests()[1]?.tools).toEqual([])
  })

  it('a cancel ends the wait and the turn ends cancelled without a request', async () => {
    const made = await host()
    const agent = made.agents.create({ cwd: made.dir })
    made.ctx.tools.hold(agent.session.header.id, new Promise(() => {}))
    const turn = agent.send('hello')
    await new Promise((resolve) => setTimeout(resolve, 20))
    agent.cancel()
    expect((await turn).reason).toBe('cancelled')
    expect(made.requests()).toEqual([])
  })

  it("a child session is offered its parent's session tools and its calls find them", async () => {
    const made = await host([
      { toolCalls: [{ id: 'l1', name: 'late', arguments: {} }] },
      { text: 'Done.' },
    ])
    const parent = made.agents.create({ cwd: made.dir })
    made.ctx.tools.register(late, { session: parent.session.header.id })
    const child = made.agents.createChild(parent)
    expect((await child.send('use it')).reason).toBe('completed')
    expect(made.requests()[0]?.tools.map((tool) => tool.name)).toEqual(['late'])
    const result = child.session.events.find((event) => event.type === 'tool/result')
    expect(result?.type === 'tool/result' && result.content).toEqual([
      { type: 'text', text: 'here' },
    ])
    expect(made.agents.list()).toEqual([parent])
    await parent.dispose()
    expect(child.disposed).toBe(true)
  })
})
