// The decision table, cell by cell, on MemoryFileSystem: each mode × read/write × inside/outside,
// other effects in every mode, and a tool with no presentation; the effect decides, not the
// card's kind (a think card that writes is an edit); plus how the mode is chosen.
import { describe, expect, it, vi } from 'vitest'
import { PERMISSION_MODES, isPermissionModeId } from '../src/index'
import { makeHarness, session } from './helpers/harness'

type Expected = 'ran' | 'asked' | 'refused'

const INSIDE = '/w/a.txt'
const OUTSIDE = '/x/b.txt'

// mode, [read inside, read outside, edit inside, edit outside, other]
const TABLE: [string, Expected, Expected, Expected, Expected, Expected][] = [
  ['ask', 'ran', 'asked', 'asked', 'asked', 'asked'],
  ['auto-edit', 'ran', 'asked', 'ran', 'asked', 'asked'],
  ['read-only', 'ran', 'asked', 'refused', 'refused', 'refused'],
  ['full-access', 'ran', 'ran', 'ran', 'ran', 'ran'],
  ['plan', 'ran', 'asked', 'refused', 'refused', 'refused'],
]

const READ_TOOLS = ['read', 'grep']
const EDIT_TOOLS = ['edit', 'delete', 'move']
const OTHER_TOOLS = ['run', 'bare']

const CASES = TABLE.flatMap(([mode, readIn, readOut, editIn, editOut, other]) => [
  ...READ_TOOLS.flatMap((tool) => [
    { mode, tool, path: INSIDE, expected: readIn },
    { mode, tool, path: OUTSIDE, expected: readOut },
  ]),
  ...EDIT_TOOLS.flatMap((tool) => [
    { mode, tool, path: INSIDE, expected: editIn },
    { mode, tool, path: OUTSIDE, expected: editOut },
  ]),
  ...OTHER_TOOLS.flatMap((tool) => [
    { mode, tool, path: INSIDE, expected: other },
    { mode, tool, path: OUTSIDE, expected: other },
  ]),
])

const OUTCOMES = {
  ran: { ran: true, asked: 0, code: undefined },
  asked: { ran: true, asked: 1, code: undefined },
  refused: { ran: false, asked: 0, code: 'PERMISSION_DENIED' },
}

async function seeded(config?: Parameters<typeof makeHarness>[0]) {
  const harness = await makeHarness(config)
  harness.memory.putText('a.txt', 'a\n')
  harness.memory.putText('/x/b.txt', 'b\n')
  return harness
}

describe('the decision table', () => {
  it.each(CASES)('in $mode mode, $tool of $path is $expected', async (row) => {
    const harness = await seeded()
    const result = await harness.call(row.tool, row.path, {
      session: session('/w', { mode: row.mode }),
    })
    expect(harness.outcome(result)).toEqual(OUTCOMES[row.expected])
  })

  it.each(TABLE.map(([mode]) => mode))(
    'in %s mode, a call with no effect (a plan update) runs without asking',
    async (mode) => {
      const harness = await seeded()
      const result = await harness.call('plan', OUTSIDE, { session: session('/w', { mode }) })
      expect(harness.outcome(result)).toEqual(OUTCOMES.ran)
    },
  )

  it.each(TABLE)(
    'in %s mode, a call drawn as think that writes is judged as an edit',
    async (mode, _readIn, _readOut, editIn) => {
      const harness = await seeded()
      const result = await harness.call('note', INSIDE, { session: session('/w', { mode }) })
      expect(harness.outcome(result)).toEqual(OUTCOMES[editIn])
    },
  )

  it('a relative path inside the cwd counts as inside', async () => {
    const harness = await seeded()
    const result = await harness.call('edit', 'a.txt', {
      session: session('/w', { mode: 'auto-edit' }),
    })
    expect(harness.outcome(result)).toEqual(OUTCOMES.ran)
  })

  it('full-access asks the file system nothing and presents nothing', async () => {
    const harness = await seeded()
    const realPath = vi.spyOn(harness.memory, 'realPath')
    const presentCall = vi.spyOn(harness.ctx.tools, 'presentCall')
    const result = await harness.call('edit', OUTSIDE, {
      session: session('/w', { mode: 'full-access' }),
    })
    expect(harness.outcome(result)).toEqual(OUTCOMES.ran)
    expect(realPath).not.toHaveBeenCalled()
    expect(presentCall).not.toHaveBeenCalled()
  })
})

describe('the mode of a call', () => {
  it('an unknown header mode falls back to the default mode', async () => {
    const harness = await seeded({ config: { defaultMode: 'read-only' } })
    const result = await harness.call('edit', INSIDE, { session: session('/w', { mode: 'yolo' }) })
    expect(harness.outcome(result)).toEqual(OUTCOMES.refused)
  })

  it('a header without a mode gets the default mode', async () => {
    const harness = await seeded({ config: { defaultMode: 'auto-edit' } })
    const result = await harness.call('edit', INSIDE, { session: session('/w') })
    expect(harness.outcome(result)).toEqual(OUTCOMES.ran)
  })

  it('the default mode is ask when the config names none', async () => {
    const harness = await seeded()
    const result = await harness.call('edit', INSIDE, { session: session('/w') })
    expect(harness.outcome(result)).toEqual(OUTCOMES.asked)
  })

  it('a session with no mode and no roots has the default mode, so a read is asked', async () => {
    const harness = await seeded()
    const result = await harness.call('read', INSIDE)
    expect(harness.outcome(result)).toEqual(OUTCOMES.asked)
    expect(harness.asked[0]!.options.map((option) => option.optionId)).toEqual([
      'allow_once',
      'reject_once',
    ])
  })

  it('a session with no mode runs in a full-access default', async () => {
    const harness = await seeded({ config: { defaultMode: 'full-access' } })
    const result = await harness.call('edit', OUTSIDE)
    expect(harness.outcome(result)).toEqual(OUTCOMES.ran)
  })

  it('an unknown default mode in the config fails the load', async () => {
    const attempt = makeHarness({ config: { defaultMode: 'yolo' as 'ask' } })
    await expect(attempt).rejects.toThrow()
  })
})

describe('the modes', () => {
  it('lists the five modes in order with their names', () => {
    expect(PERMISSION_MODES.map(({ id, name }) => [id, name])).toEqual([
      ['ask', 'Ask before edits'],
      ['auto-edit', 'Edit automatically'],
      ['read-only', 'Read only'],
      ['full-access', 'Full access'],
      ['plan', 'Plan'],
    ])
  })

  it('isPermissionModeId accepts the ids and nothing else', () => {
    expect(PERMISSION_MODES.every((mode) => isPermissionModeId(mode.id))).toBe(true)
    expect([' ask', 'Ask before edits', 'full', undefined, 1].some(isPermissionModeId)).toBe(false)
  })
})
