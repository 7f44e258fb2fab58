// A tool that judges its own calls through `access`: the gate takes its access, scope, the keys
// "always allow" remembers, an escalation that is always asked, and the OS confinement that
// lets a command run unasked where it suffices for the mode — cell by cell.
import { describe, expect, it } from 'vitest'
import { ALLOW_ALWAYS, ALLOW_ONCE, makeHarness, session } from './helpers/harness'

const RAN = { ran: true, asked: 0, code: undefined }
const ASKED = { ran: true, asked: 1, code: undefined }
const REFUSED = { ran: false, asked: 0, code: 'PERMISSION_DENIED' }

type Outcome = typeof RAN | typeof REFUSED

async function seeded() {
  const harness = await makeHarness()
  harness.memory.putText('a.txt', 'a\n')
  harness.memory.putText('/x/b.txt', 'b\n')
  return harness
}

// mode, [unconfined, confined to the workspace, confined read-only, escalated]
const CONFINEMENT: [string, Outcome, Outcome, Outcome, Outcome][] = [
  ['ask', ASKED, ASKED, ASKED, ASKED],
  ['auto-edit', ASKED, RAN, RAN, ASKED],
  ['read-only', REFUSED, REFUSED, RAN, ASKED],
  ['full-access', RAN, RAN, RAN, RAN],
]

describe('a tool that classifies its calls', () => {
  it.each(CONFINEMENT)(
    'in %s mode an other call is unconfined %o, in the workspace %o, read-only %o, escalated %o',
    async (mode, unconfined, workspace, readOnly, escalated) => {
      const cases = [
        [{}, unconfined],
        [{ confined: 'workspace' }, workspace],
        [{ confined: 'read-only' }, readOnly],
        [{ confined: 'workspace', askAlways: true }, escalated],
      ] as const
      for (const [extra, expected] of cases) {
        const harness = await seeded()
        const args = { command: 'make', effect: 'execute', scope: ['/w'], ...extra }
        const result = await harness.call('classified', args, { session: session('/w', { mode }) })
        expect(harness.outcome(result), JSON.stringify(extra)).toEqual(expected)
      }
    },
  )

  it('a read judged by its scope runs inside the roots and is asked outside', async () => {
    const harness = await seeded()
    const mine = session('/w', { mode: 'ask' })
    const inside = { command: 'ls', effect: 'read', scope: ['/w'] }
    expect(harness.outcome(await harness.call('classified', inside, { session: mine }))).toEqual(
      RAN,
    )
    harness.reset()
    const outside = { command: 'ls /x', effect: 'read', scope: ['/x'] }
    expect(harness.outcome(await harness.call('classified', outside, { session: mine }))).toEqual(
      ASKED,
    )
  })

  it('always allow remembers the call keys and covers a later call only when all are allowed', async () => {
    const harness = await seeded()
    const mine = session('/w', { mode: 'ask' })
    harness.reply = ALLOW_ALWAYS
    const first = { command: 'git add', effect: 'execute', scope: ['/w'], keys: ['git add'] }
    await harness.call('classified', first, { session: mine })
    expect(harness.asked[0]!.options.map((option) => option.name)).toContain(
      'Always allow git add commands',
    )
    harness.reset()
    harness.reply = ALLOW_ONCE
    expect(harness.outcome(await harness.call('classified', first, { session: mine }))).toEqual(RAN)
    harness.reset()
    const both = { ...first, command: 'git add && git commit', keys: ['git add', 'git commit'] }
    expect(harness.outcome(await harness.call('classified', both, { session: mine }))).toEqual(
      ASKED,
    )
  })

  it('an escalated call offers no always option and is asked again after an always answer', async () => {
    const harness = await seeded()
    const mine = session('/w', { mode: 'auto-edit' })
    harness.reply = ALLOW_ALWAYS
    const escalated = {
      command: 'rm -rf ~/.cache',
      effect: 'execute',
      scope: ['/w'],
      askAlways: true,
    }
    const first = await harness.call('classified', escalated, { session: mine })
    expect(first.error?.code).toBe('PERMISSION_CANCELLED')
    expect(harness.asked[0]!.options.map((option) => option.kind)).toEqual([
      'allow_once',
      'reject_once',
    ])
    harness.reset()
    harness.reply = ALLOW_ONCE
    const second = await harness.call('classified', escalated, { session: mine })
    expect(harness.outcome(second)).toEqual(ASKED)
  })

  it('a hook that throws leaves the call to its presentation: asked as an other call', async () => {
    const harness = await seeded()
    const args = { command: 'x', effect: 'read', scope: ['/w'], throws: true }
    const result = await harness.call('classified', args, {
      session: session('/w', { mode: 'auto-edit' }),
    })
    expect(harness.outcome(result)).toEqual(ASKED)
  })
})
