// Context sources: their notes are logged and sent as user-side messages before the person's
// message and after a step's tool results; a loaded session's conversation has them in place;
// a summary's opening carries what the sources hold; a failing source is skipped; a removed
// source adds nothing more.
import { afterEach, describe, expect, it } from 'vitest'
import { historyOf } from '../src'
import type { ContextSource } from '../src'
import { echoCall, echoHost, ofType } from './helpers/echo'
import type { Host } from './helpers/host'
import { eventTypes } from './helpers/host'

const hosts: Host[] = []
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.cleanup()))
})

/** A source that says each of `texts` once, one per ask, and carries `carried`. */
function saying(texts: string[], carried?: string): ContextSource & { asked: number } {
  const source = {
    name: 'test-notes',
    asked: 0,
    notes: () => {
      const text = texts[source.asked++]
      return text === undefined || text === ''
        ? []
        : [{ text, display: `shown: ${text}`, data: { n: source.asked } }]
    },
    carried: () => carried,
  }
  return source
}

describe('context notes', () => {
  it('a note stands before the person message and after a step, and the log rebuilds them', async () => {
    const host = await echoHost(hosts, {
      script: { turns: [{ toolCalls: [echoCall('c1', 'hi')] }, { text: 'Done.' }] },
    })
    const source = saying(['FIRST NOTE', 'SECOND NOTE'])
    host.agents.addContextSource(source)
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('Go')
    const [first, second] = host.requests()
    expect(first!.messages).toEqual([
      { role: 'user', content: 'FIRST NOTE', note: 'test-notes' },
      { role: 'user', content: 'Go' },
    ])
    expect(second!.messages.slice(-2)).toEqual([
      { role: 'tool', toolCallId: 'c1', content: 'echo: hi', isError: false },
      { role: 'user', content: 'SECOND NOTE', note: 'test-notes' },
    ])
    const kept = ['context/note', 'user/message', 'tool/result', 'assistant/text']
    expect(eventTypes(agent.session.events).filter((type) => kept.includes(type))).toEqual([
      'context/note',
      'user/message',
      'tool/result',
      'context/note',
      'assistant/text',
    ])
    expect(ofType(agent.session.events, 'context/note')[0]).toMatchObject({
      source: 'test-notes',
      display: 'shown: FIRST NOTE',
      data: { n: 1 },
    })
    const rebuilt = historyOf(agent.session.events)
    expect(rebuilt.slice(0, second!.messages.length)).toEqual(second!.messages)
  })

  it('a summary opens with what the sources carry, before the first message', async () => {
    const host = await echoHost(hosts, {
      script: { turns: [{ text: 'Hello.' }, { text: 'They said hi.' }, { text: 'Yes.' }] },
    })
    host.agents.addContextSource(saying(['THE RULES'], 'CARRIED RULES'))
    const agent = host.agents.create({ cwd: host.dir })
    await agent.send('Hi')
    await agent.compact()
    const summary = host.requests()[1]!
    expect(summary.messages[0]!.content).not.toContain('THE RULES')
    await agent.send('Again')
    const opening = host.requests()[2]!.messages[0]!
    expect(opening.role).toBe('user')
    expect(opening.content).toMatch(/^CARRIED RULES\n\nHi\n/)
    expect(opening.content).toContain('They said hi.')
  })

  it('a failing source is skipped and a removed one adds nothing more', async () => {
    const host = await echoHost(hosts, { script: { turns: [{ text: 'A.' }, { text: 'B.' }] } })
    host.agents.addContextSource({
      name: 'broken',
      notes: () => {
        throw new Error('cannot read')
      },
    })
    const remove = host.agents.addContextSource(saying(['ONE', 'TWO']))
    const agent = host.agents.create({ cwd: host.dir })
    const end = await agent.send('First')
    expect(end.reason).toBe('completed')
    remove()
    await agent.send('Second')
    const notes = ofType(agent.session.events, 'context/note').map((event) => event.text)
    expect(notes).toEqual(['ONE'])
  })
})
