// A tool's live output (`output` reports) reaches the session's subscribers as `tool/output`,
// is never kept in the log nor stored; and the agent's lifetime signal fires on dispose.
import { defineTool } from '@deepseek-ai/dsh-tools'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { SessionEvent } from '../src'
import { createHost } from './helpers/host'
import type { Host } from './helpers/host'
import { MemorySessionStore } from './helpers/memory-store'

let host: Host | undefined
afterEach(async () => {
  await host?.cleanup()
  host = undefined
})

const talker = defineTool({
  name: 'talk',
  description: 'Reports two pieces of live output, then returns.',
  input: z.object({}),
  execute: async (_args, exec) => {
    exec.report?.({ type: 'output', text: 'one\n' })
    exec.report?.({ type: 'output', text: 'two\n' })
    return 'done'
  },
})

describe('live output', () => {
  it('is delivered to subscribers but neither logged nor stored', async () => {
    const store = new MemorySessionStore()
    const script = {
      turns: [{ toolCalls: [{ id: 't1', name: 'talk', arguments: {} }] }, { text: 'ok' }],
    }
    host = await createHost({ script, store })
    host.ctx.tools.register(talker)
    const agent = host.agents.create({ cwd: host.dir })
    const seen: SessionEvent[] = []
    agent.subscribe((event) => seen.push(event))
    await agent.send('talk')
    const live = seen.filter((event) => event.type === 'tool/output')
    expect(live).toEqual([
      { type: 'tool/output', turnId: expect.any(String), callId: 't1', text: 'one\n' },
      { type: 'tool/output', turnId: expect.any(String), callId: 't1', text: 'two\n' },
    ])
    const types = (events: readonly { type: string }[]) => events.map((event) => event.type)
    expect(types(agent.session.events)).not.toContain('tool/output')
    const stored = store.entries.get(agent.session.header.id)?.events ?? []
    expect(types(stored)).toContain('tool/result')
    expect(types(stored)).not.toContain('tool/output')
  })

  it('the lifetime signal fires when the agent is disposed', async () => {
    host = await createHost()
    const agent = host.agents.create({ cwd: host.dir })
    expect(agent.lifetime.aborted).toBe(false)
    await agent.dispose()
    expect(agent.lifetime.aborted).toBe(true)
  })
})
