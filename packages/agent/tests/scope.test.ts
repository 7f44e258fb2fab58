// A session's scope: a root session is created (or restored) whole with its host's channels,
// and each child session holds its root's scope by reference: the root's id, mode and channels.
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, tellPerson } from '@deepseek-ai/dsh-tools'
import type { ToolNotice } from '@deepseek-ai/dsh-tools'
import { createHost } from './helpers/host'
import type { Host } from './helpers/host'
import { MemorySessionStore } from './helpers/memory-store'

const hosts: Host[] = []
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.cleanup()))
})

/** A tool that tells the person of its call's session what the call saw of its scope. */
const tell = defineTool({
  name: 'tell',
  description: 'Tells the person.',
  input: z.object({}),
  execute: async (_args, exec) => {
    const { scope, header } = exec.session
    const told = tellPerson(exec, { title: `${header.id} in ${scope.id}, mode ${scope.mode}` })
    return told ? 'told' : 'nobody to tell'
  },
})

const TURNS = [{ toolCalls: [{ id: 't1', name: 'tell', arguments: {} }] }, { text: 'Done.' }]

async function host(store?: MemorySessionStore): Promise<Host> {
  const made = await createHost({
    script: { turns: [...TURNS, ...TURNS] },
    ...(store && { store }),
  })
  made.ctx.tools.register(tell)
  hosts.push(made)
  return made
}

describe('a session given whole', () => {
  it("a new session's calls reach the person through the channels it was created with", async () => {
    const made = await host()
    const notices: ToolNotice[] = []
    const channels = { notice: (notice: ToolNotice) => void notices.push(notice) }
    const agent = made.agents.create({ cwd: made.dir, mode: 'ask', channels })
    expect(agent.session.scope.channels).toBe(channels)
    await agent.send('tell me')
    const id = agent.session.header.id
    expect(notices).toEqual([{ title: `${id} in ${id}, mode ask` }])
  })

  it('a session created without channels tells nobody', async () => {
    const made = await host()
    const agent = made.agents.create({ cwd: made.dir })
    await agent.send('tell me')
    const result = agent.session.events.find((event) => event.type === 'tool/result')
    expect(result?.type === 'tool/result' && result.content).toEqual([
      { type: 'text', text: 'nobody to tell' },
    ])
  })

  it('a restored session is given the channels of its new host', async () => {
    const store = new MemorySessionStore()
    const made = await host(store)
    const first = made.agents.create({ cwd: made.dir, mode: 'auto-edit' })
    const id = first.session.header.id
    await first.dispose()
    const notices: ToolNotice[] = []
    const channels = { notice: (notice: ToolNotice) => void notices.push(notice) }
    const restored = made.agents.restore(id, { channels })
    await restored.send('tell me')
    expect(notices).toEqual([{ title: `${id} in ${id}, mode auto-edit` }])
  })
})

describe('child sessions share their root scope', () => {
  it("a child's and a grandchild's calls use the root's id, mode and channels", async () => {
    const made = await host()
    const notices: ToolNotice[] = []
    const channels = { notice: (notice: ToolNotice) => void notices.push(notice) }
    const root = made.agents.create({ cwd: made.dir, mode: 'ask', channels })
    const child = made.agents.createChild(root)
    const grandchild = made.agents.createChild(child)
    expect(child.session.scope).toBe(root.session.scope)
    expect(grandchild.session.scope).toBe(root.session.scope)
    root.setMode('plan')
    await grandchild.send('tell me')
    const [rootId, own] = [root.session.header.id, grandchild.session.header.id]
    expect(notices).toEqual([{ title: `${own} in ${rootId}, mode plan` }])
  })
})
