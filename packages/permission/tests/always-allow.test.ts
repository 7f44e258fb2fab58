// "Always allow": a session's choice for one tool, inside its roots only, never over a refusal.
import { describe, expect, it } from 'vitest'
import { ALLOW_ALWAYS, ALLOW_ONCE, makeHarness, session } from './helpers/harness'

const RAN = { ran: true, asked: 0, code: undefined }
const ASKED = { ran: true, asked: 1, code: undefined }

async function allowedAlways() {
  const harness = await makeHarness()
  harness.memory.putText('a.txt', 'a\n')
  harness.memory.putText('/x/b.txt', 'b\n')
  const mine = session('/w', { mode: 'ask' })
  harness.reply = ALLOW_ALWAYS
  const first = await harness.call('edit', 'a.txt', { session: mine })
  expect(harness.outcome(first)).toEqual(ASKED)
  harness.reset()
  harness.reply = ALLOW_ONCE
  return { harness, mine }
}

describe('always allow', () => {
  it('a second call of the tool inside the roots runs without asking', async () => {
    const { harness, mine } = await allowedAlways()
    const result = await harness.call('edit', '/w/new.txt', { session: mine })
    expect(harness.outcome(result)).toEqual(RAN)
  })

  it('a call of the tool outside the roots is still asked', async () => {
    const { harness, mine } = await allowedAlways()
    const result = await harness.call('edit', '/x/b.txt', { session: mine })
    expect(harness.outcome(result)).toEqual(ASKED)
  })

  it('another session is still asked', async () => {
    const { harness } = await allowedAlways()
    const result = await harness.call('edit', 'a.txt', { session: session('/w', { mode: 'ask' }) })
    expect(harness.outcome(result)).toEqual(ASKED)
  })

  it('another tool is still asked', async () => {
    const { harness, mine } = await allowedAlways()
    const result = await harness.call('delete', 'a.txt', { session: mine })
    expect(harness.outcome(result)).toEqual(ASKED)
  })

  it('a session switched to read only is refused despite it', async () => {
    const { harness, mine } = await allowedAlways()
    mine.header.mode = 'read-only'
    const result = await harness.call('edit', 'a.txt', { session: mine })
    expect(harness.outcome(result)).toEqual({ ran: false, asked: 0, code: 'PERMISSION_DENIED' })
  })

  it('allow once is not remembered', async () => {
    const harness = await makeHarness()
    const mine = session('/w', { mode: 'ask' })
    await harness.call('edit', 'a.txt', { session: mine })
    harness.reset()
    const result = await harness.call('edit', 'a.txt', { session: mine })
    expect(harness.outcome(result)).toEqual(ASKED)
  })
})
