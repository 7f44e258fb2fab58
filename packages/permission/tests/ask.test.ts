// Asking the person: the options offered, the request the `ask` channel carries, what each answer
// does, cancellation, a preview that fails, the unanswered default and the refusal message.
import { describe, expect, it } from 'vitest'
import { permissionOptions } from '../src/ask'
import { makeHarness, REJECT, session, textOf } from './helpers/harness'

const INSIDE = '/w/a.txt'
const OUTSIDE = '/x/b.txt'

async function seeded(options?: Parameters<typeof makeHarness>[0]) {
  const harness = await makeHarness(options)
  harness.memory.putText('a.txt', 'a\n')
  harness.memory.putText(OUTSIDE, 'b\n')
  return harness
}

const inAsk = () => session('/w', { mode: 'ask' })

/** The thrown value of a failed preview, with a code as an FsError has. */
class StaleError extends Error {
  readonly code = 'FS_STALE_VERSION'
}

describe('the options offered', () => {
  it('a call inside the roots is offered allow, always allow and reject in that order', async () => {
    const harness = await seeded()
    await harness.call('edit', INSIDE, { session: inAsk() })
    expect(harness.asked[0]!.options).toEqual([
      { optionId: 'allow_once', kind: 'allow_once', name: 'Allow' },
      { optionId: 'allow_always', kind: 'allow_always', name: 'Always allow edit in this session' },
      { optionId: 'reject_once', kind: 'reject_once', name: 'Reject' },
    ])
  })

  it('an always-allow name is plain text on one line and under 80 characters', () => {
    const label = `exactly \`${'x'.repeat(200)}\`\nand more in this session`
    const name = permissionOptions({ keys: ['k'], label })[1]!.name
    expect(name).toMatch(/^Always allow exactly x+…$/)
    expect(name.length).toBeLessThan(80)
    const short = permissionOptions({ keys: ['k'], label: 'writing to `my_out.txt`' })[1]!.name
    expect(short).toBe('Always allow writing to my_out.txt')
  })

  it('a call outside the roots is not offered always allow', async () => {
    const harness = await seeded()
    await harness.call('edit', OUTSIDE, { session: inAsk() })
    expect(harness.asked[0]!.options.map((option) => option.kind)).toEqual([
      'allow_once',
      'reject_once',
    ])
  })
})

describe('the request', () => {
  it('carries the call, its preview and its locations made absolute with their line', async () => {
    const harness = await seeded()
    const where = inAsk()
    await harness.call('edit', { file_path: 'a.txt', line: 3 }, { session: where })
    const request = harness.asked[0]!
    expect(request.exec).toMatchObject({ name: 'edit', session: where })
    expect(request.presentation).toEqual({
      title: 'edit a.txt',
      kind: 'edit',
      locations: [{ path: '/w/a.txt', line: 3 }],
    })
    expect(request.preview).toEqual([
      { type: 'diff', path: 'a.txt', oldText: 'old', newText: 'new' },
    ])
  })

  it('a tool without presentation gets a generic card and an empty preview', async () => {
    const harness = await seeded()
    await harness.call('bare', INSIDE, { session: inAsk() })
    expect(harness.asked[0]!.presentation).toEqual({ title: 'bare', kind: 'other' })
    expect(harness.asked[0]!.preview).toEqual([])
  })
})

describe('the answers', () => {
  it('a rejected call does not run and tells the model not to retry it', async () => {
    const harness = await seeded()
    harness.reply = REJECT
    const result = await harness.call('edit', INSIDE, { session: inAsk() })
    expect(harness.outcome(result)).toEqual({ ran: false, asked: 1, code: 'PERMISSION_REJECTED' })
    expect(result.error?.name).toBe('PermissionError')
    expect(textOf(result)).toBe(
      'Error: The person rejected "edit /w/a.txt". Do not retry the same call; ask the person what they want to do instead.',
    )
  })

  it('a cancelled answer is PERMISSION_CANCELLED and the call does not run', async () => {
    const harness = await seeded()
    harness.reply = { outcome: 'cancelled' }
    const result = await harness.call('edit', INSIDE, { session: inAsk() })
    expect(harness.outcome(result)).toEqual({ ran: false, asked: 1, code: 'PERMISSION_CANCELLED' })
  })

  it('an option that was not offered counts as cancelled', async () => {
    const harness = await seeded()
    harness.reply = { outcome: 'selected', optionId: 'allow_always' }
    const result = await harness.call('edit', OUTSIDE, { session: inAsk() })
    expect(harness.outcome(result)).toEqual({ ran: false, asked: 1, code: 'PERMISSION_CANCELLED' })
  })

  it('a ui that could not ask denies the call with its reason and the call does not run', async () => {
    const harness = await seeded()
    harness.reply = { outcome: 'failed', reason: 'it answered with error -32603: no window' }
    const result = await harness.call('edit', INSIDE, { session: inAsk() })
    expect(harness.outcome(result)).toEqual({ ran: false, asked: 1, code: 'PERMISSION_DENIED' })
    expect(textOf(result)).toBe(
      'Error: The editor could not ask the person whether to allow "edit /w/a.txt" (it answered ' +
        'with error -32603: no window), so the call did not run. Do not retry it; tell the ' +
        'person what you wanted to do, so they can allow it another way.',
    )
  })

  it('a turn cancelled while the person is asked ends the wait with PERMISSION_CANCELLED', async () => {
    const harness = await seeded()
    harness.reply = 'never'
    const turn = new AbortController()
    const pending = harness.call('edit', INSIDE, { session: inAsk(), signal: turn.signal })
    await expect.poll(() => harness.asked.length).toBe(1)
    turn.abort()
    const result = await pending
    expect(harness.outcome(result)).toEqual({ ran: false, asked: 1, code: 'PERMISSION_CANCELLED' })
    expect(textOf(result)).toContain('the turn was cancelled')
  })

  it('a preview that fails ends the call with its error and asks nobody', async () => {
    const harness = await seeded()
    harness.probe.previewFailure = new StaleError('a.txt changed since it was read.')
    const result = await harness.call('edit', INSIDE, { session: inAsk() })
    expect(harness.outcome(result)).toEqual({ ran: false, asked: 0, code: 'FS_STALE_VERSION' })
    expect(textOf(result)).toBe('Error: a.txt changed since it was read.')
  })
})

describe('nobody to ask', () => {
  it('a session without an ask channel has the call denied by default', async () => {
    const harness = await seeded({ noAsker: true })
    const result = await harness.call('edit', INSIDE, { session: inAsk() })
    expect(harness.outcome(result)).toEqual({ ran: false, asked: 0, code: 'PERMISSION_DENIED' })
    expect(textOf(result)).toBe(
      'Error: Nothing here can ask the person whether to allow "edit /w/a.txt", and this host ' +
        'denies such calls when nobody can be asked (a host that wants them to run sets the ' +
        'permission layer\'s `unanswered` option to "allow"). Do not retry it; tell the person, ' +
        'who can switch the session to "Edit automatically" or "Full access" to let it run ' +
        'without asking.',
    )
  })

  it('with unanswered allow the call runs when nobody answers', async () => {
    const harness = await seeded({ noAsker: true, config: { unanswered: 'allow' } })
    const result = await harness.call('edit', OUTSIDE, { session: inAsk() })
    expect(harness.outcome(result)).toEqual({ ran: true, asked: 0, code: undefined })
  })
})

describe('refusal', () => {
  it('a refused edit names the mode, says how to change it and asks nobody', async () => {
    const harness = await seeded()
    const result = await harness.call('edit', INSIDE, {
      session: session('/w', { mode: 'read-only' }),
    })
    expect(harness.outcome(result)).toEqual({ ran: false, asked: 0, code: 'PERMISSION_DENIED' })
    expect(textOf(result)).toBe(
      'Error: Edits are refused in the "Read only" mode of this session. Ask the person to ' +
        'switch the session to "Ask before edits" or "Edit automatically" if the change is wanted.',
    )
  })

  it('while planning, an edit is refused unasked saying the session is planning', async () => {
    const harness = await seeded()
    const result = await harness.call('edit', INSIDE, { session: session('/w', { mode: 'plan' }) })
    expect(harness.outcome(result)).toEqual({ ran: false, asked: 0, code: 'PERMISSION_DENIED' })
    expect(textOf(result)).toContain('the session is planning')
    expect(textOf(result)).toContain('exit_plan_mode')
  })
})
