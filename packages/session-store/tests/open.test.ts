import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expectAgentError } from './helpers/errors'
import { sessionHeader, tempStore, type TempStore } from './helpers/store'

/** A closed session `s1` with two events. */
function storeTwo({ store }: TempStore): void {
  const writer = store.create(sessionHeader('s1'))
  writer.append({ type: 'turn/start', turnId: 't1' })
  writer.append({ type: 'user/message', turnId: 't1', text: 'hi' })
  writer.close()
}

/** Every file of the store directory with its bytes. */
function snapshot(dir: string): Record<string, string> {
  const files = readdirSync(dir).sort()
  return Object.fromEntries(files.map((name) => [name, readFileSync(join(dir, name), 'base64')]))
}

describe('torn lines', () => {
  it('a last line without a newline is dropped with a warning and the next append starts fresh', async () => {
    const temp = await tempStore()
    storeTwo(temp)
    const log = join(temp.dir, 's1.jsonl')
    appendFileSync(log, '{"type":"turn/end","tu')
    const { events, writer } = temp.store.open('s1')
    expect(events.map((event) => event.type)).toEqual(['turn/start', 'user/message'])
    expect(temp.warnings).toHaveLength(1)
    expect(temp.warnings[0]).toContain(`dropped the torn last line of ${log} (22 bytes`)
    writer.append({ type: 'turn/end', turnId: 't1', reason: 'completed' })
    writer.close()
    expect(
      readFileSync(log, 'utf8').endsWith(
        '"hi"}\n{"type":"turn/end","turnId":"t1","reason":"completed"}\n',
      ),
    ).toBe(true)
    expect(temp.store.open('s1').events).toHaveLength(3)
  })

  it('a last line that is not JSON is dropped with a warning naming the file', async () => {
    const temp = await tempStore()
    storeTwo(temp)
    appendFileSync(join(temp.dir, 's1.jsonl'), '\0\0\0\0\n')
    const { events, writer } = temp.store.open('s1')
    expect(events).toHaveLength(2)
    expect(temp.warnings[0]).toMatch(/s1\.jsonl \(5 bytes, not JSON\)/)
    writer.append({ type: 'turn/end', turnId: 't1', reason: 'completed' })
    writer.close()
    expect(temp.store.open('s1').events).toHaveLength(3)
  })

  it('a bad middle line makes the session unreadable and leaves every file as it was', async () => {
    const temp = await tempStore()
    storeTwo(temp)
    const log = join(temp.dir, 's1.jsonl')
    const lines = readFileSync(log, 'utf8').split('\n')
    lines[1] = '{"type":"turn/st'
    writeFileSync(log, lines.join('\n'))
    const before = snapshot(temp.dir)
    expectAgentError(
      () => temp.store.open('s1'),
      'AGENT_SESSION_UNREADABLE',
      /s1\.jsonl .*line 2 is not JSON/,
    )
    expect(snapshot(temp.dir)).toEqual(before)
  })

  it('an event that is not an object with a string type makes the session unreadable', async () => {
    const temp = await tempStore()
    storeTwo(temp)
    appendFileSync(join(temp.dir, 's1.jsonl'), '{"type":3}\n')
    expectAgentError(
      () => temp.store.open('s1'),
      'AGENT_SESSION_UNREADABLE',
      /line 4: it is not an event/,
    )
  })

  it.each([
    [
      '{"type":"weird/thing","turnId":"t1"}',
      /line 4: its event type "weird\/thing" is not one this store writes/,
    ],
    ['{"type":"tool/output","turnId":"t1","callId":"c","text":"x"}', /event type "tool\/output"/],
    [
      '{"type":"tool/result","turnId":"t1"}',
      /line 4: its "tool\/result" event has no string "callId"/,
    ],
    ['{"type":"user/message","turnId":"t1"}', /"user\/message" event has no string "text"/],
    [
      '{"type":"turn/end","turnId":"t1","reason":"tired"}',
      /"reason": "tired", not one of completed/,
    ],
    ['{"type":"tool/asked","turnId":"t1","callId":"c","preview":[1]}', /no array "preview"/],
  ])(
    'an event the store does not write (%s) makes the session unreadable',
    async (line, problem) => {
      const temp = await tempStore()
      storeTwo(temp)
      appendFileSync(join(temp.dir, 's1.jsonl'), `${line}\n`)
      const before = snapshot(temp.dir)
      expectAgentError(() => temp.store.open('s1'), 'AGENT_SESSION_UNREADABLE', problem)
      expect(snapshot(temp.dir)).toEqual(before)
    },
  )
})

describe('unreadable sessions', () => {
  it('a header that is not JSON is unreadable, named, and kept', async () => {
    const temp = await tempStore()
    storeTwo(temp)
    writeFileSync(join(temp.dir, 's1.json'), 'garbage')
    const before = snapshot(temp.dir)
    expectAgentError(
      () => temp.store.open('s1'),
      'AGENT_SESSION_UNREADABLE',
      /s1\.json .*it is not JSON/,
    )
    expect(snapshot(temp.dir)).toEqual(before)
  })

  it('a header without the format marker is unreadable', async () => {
    const temp = await tempStore()
    storeTwo(temp)
    writeFileSync(join(temp.dir, 's1.json'), JSON.stringify(sessionHeader('s1')))
    expectAgentError(
      () => temp.store.open('s1'),
      'AGENT_SESSION_UNREADABLE',
      /"format": "dsh-session\/1"/,
    )
  })

  it('a log without its format line is unreadable', async () => {
    const temp = await tempStore()
    storeTwo(temp)
    writeFileSync(join(temp.dir, 's1.jsonl'), '{"type":"turn/start","turnId":"t1"}\n')
    expectAgentError(() => temp.store.open('s1'), 'AGENT_SESSION_UNREADABLE', /first line is not/)
  })

  it('a failed open leaves the session free for the next open', async () => {
    const temp = await tempStore()
    storeTwo(temp)
    const header = join(temp.dir, 's1.json')
    const good = readFileSync(header)
    writeFileSync(header, 'garbage')
    expectAgentError(() => temp.store.open('s1'), 'AGENT_SESSION_UNREADABLE')
    writeFileSync(header, good)
    const { events, writer } = temp.store.open('s1')
    writer.close()
    expect(events).toHaveLength(2)
  })
})

describe('ids', () => {
  it('an unknown id is AGENT_SESSION_NOT_FOUND naming the id and the store', async () => {
    const temp = await tempStore()
    storeTwo(temp)
    const error = expectAgentError(() => temp.store.open('nope'), 'AGENT_SESSION_NOT_FOUND', /nope/)
    expect(error.message).toContain(temp.dir)
  })

  it('a path-like id is refused as unreadable without reading outside the store', async () => {
    const temp = await tempStore()
    storeTwo(temp)
    for (const id of ['../s1', 's1/..', '/etc/passwd', '.', '', 's1.json']) {
      expectAgentError(() => temp.store.open(id), 'AGENT_SESSION_UNREADABLE', /not a plain id/)
    }
  })
})
