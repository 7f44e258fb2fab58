import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import { afterEach, describe, expect, it } from 'vitest'
import type { SessionEvent } from '../src'
import { createHost, eventTypes } from './helpers/host'
import type { Host } from './helpers/host'

const hosts: Host[] = []

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.cleanup()))
})

async function fsHost(script: LlmScript, files: Record<string, string>): Promise<Host> {
  const host = await createHost({ script, fs: true })
  hosts.push(host)
  for (const [name, content] of Object.entries(files)) {
    await writeFile(join(host.dir, name), content)
  }
  return host
}

function results(events: readonly SessionEvent[]) {
  return events.filter(
    (event): event is Extract<SessionEvent, { type: 'tool/result' }> =>
      event.type === 'tool/result',
  )
}

const read = (id: string, path: string) => ({ id, name: 'read', arguments: { file_path: path } })
const edit = (id: string, path: string, from: string, to: string) => ({
  id,
  name: 'edit',
  arguments: { file_path: path, old_string: from, new_string: to },
})

describe('a conversation through the real fs stack', () => {
  it('each call and result carries its card, presented once with the session cwd', async () => {
    const script = {
      turns: [{ toolCalls: [edit('e1', 'a.txt', 'hello', 'bye')] }, { text: 'Done.' }],
    }
    const host = await fsHost(script, { 'a.txt': 'hello\n' })
    const agent = host.agents.create({ cwd: host.dir })
    const read = await host.ctx.tools.execute({
      callId: 'r0',
      name: 'read',
      arguments: { file_path: 'a.txt' },
      session: agent.session,
      agent,
    })
    expect(read.isError).toBe(false)
    await agent.send('edit it')
    const call = agent.session.events.find((event) => event.type === 'tool/call')
    expect(call).toMatchObject({
      presentation: { title: 'Edit a.txt', kind: 'edit', locations: [{ path: 'a.txt' }] },
    })
    const [result] = results(agent.session.events)
    expect(result?.presentation).toEqual({
      title: 'Edited a.txt',
      content: [
        { type: 'diff', path: join(host.dir, 'a.txt'), oldText: 'hello\n', newText: 'bye\n' },
      ],
      locations: [{ path: join(host.dir, 'a.txt'), line: 1 }],
    })
  })

  it('read, edit, write and read run in order and leave the files as the model asked', async () => {
    const script = {
      turns: [
        { text: 'Reading a.txt.', toolCalls: [read('r1', 'a.txt')] },
        { toolCalls: [edit('e1', 'a.txt', 'hello', 'goodbye')] },
        {
          toolCalls: [
            { id: 'w1', name: 'write', arguments: { file_path: 'b.txt', content: 'new file\n' } },
          ],
        },
        { toolCalls: [read('r2', join('sub', '..', 'b.txt'))] },
        { text: 'All done.' },
      ],
    }
    const host = await fsHost(script, { 'a.txt': 'hello world\n' })
    const agent = host.agents.create({ cwd: host.dir })
    const end = await agent.send('change a.txt and add b.txt')
    expect(end.reason).toBe('completed')
    expect(eventTypes(agent.session.events)).toEqual([
      'turn/start',
      'user/message',
      'assistant/text',
      'context/usage',
      'tool/call',
      'tool/started',
      'tool/result',
      'context/usage',
      'tool/call',
      'tool/started',
      'tool/result',
      'context/usage',
      'tool/call',
      'tool/started',
      'tool/result',
      'context/usage',
      'tool/call',
      'tool/started',
      'tool/result',
      'assistant/text',
      'context/usage',
      'turn/end',
    ])
    const done = results(agent.session.events)
    expect(done.map((result) => [result.callId, result.name, result.isError])).toEqual([
      ['r1', 'read', false],
      ['e1', 'edit', false],
      ['w1', 'write', false],
      ['r2', 'read', false],
    ])
    expect(done[0].content[0].text).toContain('1: hello world')
    expect(done[1].content[0].text).toContain('replaced 1 occurrence')
    expect(done[2].content[0].text).toContain('Created file')
    expect(done[3].content[0].text).toContain(`<path>${join(host.dir, 'b.txt')}</path>`)
    expect(done[3].content[0].text).toContain('1: new file')
    expect(await readFile(join(host.dir, 'a.txt'), 'utf8')).toBe('goodbye world\n')
    expect(await readFile(join(host.dir, 'b.txt'), 'utf8')).toBe('new file\n')
  })

  it('an unread edit is refused by the policy, goes back to the model and the turn goes on', async () => {
    const script = {
      turns: [
        { toolCalls: [edit('e1', 'a.txt', 'one', 'two')] },
        { text: 'I must read it first.', toolCalls: [read('r1', 'a.txt')] },
        { toolCalls: [edit('e2', 'a.txt', 'one', 'two')] },
        { text: 'Fixed.' },
      ],
    }
    const host = await fsHost(script, { 'a.txt': 'one\n' })
    const agent = host.agents.create({ cwd: host.dir })
    expect((await agent.send('edit a.txt')).reason).toBe('completed')
    const [refused, , edited] = results(agent.session.events)
    expect(refused.isError).toBe(true)
    expect(refused.error?.code).toBe('FS_NOT_OBSERVED')
    expect(host.requests()[1].messages[2]).toMatchObject({
      role: 'tool',
      toolCallId: 'e1',
      isError: true,
    })
    expect(edited.isError).toBe(false)
    expect(await readFile(join(host.dir, 'a.txt'), 'utf8')).toBe('two\n')
  })

  it('a file read by one session is still unread for another session', async () => {
    const script = {
      turns: [
        { toolCalls: [read('r1', 'a.txt')] },
        { text: 'Read.' },
        { toolCalls: [edit('e1', 'a.txt', 'one', 'two')] },
        { text: 'Refused.' },
      ],
    }
    const host = await fsHost(script, { 'a.txt': 'one\n' })
    const first = host.agents.create({ cwd: host.dir })
    const second = host.agents.create({ cwd: host.dir })
    await first.send('read a.txt')
    await second.send('edit a.txt')
    expect(results(second.session.events)[0].error?.code).toBe('FS_NOT_OBSERVED')
    expect(await readFile(join(host.dir, 'a.txt'), 'utf8')).toBe('one\n')
  })
})
