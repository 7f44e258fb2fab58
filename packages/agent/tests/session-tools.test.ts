// A session's own tools: the model request waits for those still arriving (ctx.tools.hold)
// and then lists them with the session's own prompt sections; a cancel ends the wait.
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
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

async function host(): Promise<Host> {
  const made = await createHost({ script: { turns: [{ text: 'Hi.' }] } })
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
})
