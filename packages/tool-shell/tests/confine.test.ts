// The one table of which confinement a command asks for, cell by cell: by the session's mode
// and by whether the command only reads (and so runs unasked in `ask`); none for a call that
// escalates; the network only when the app allows it.
import { describe, expect, it } from 'vitest'
import type { ShellConfinement } from '@deepseek-ai/dsh-shell'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { testExecution, testSession } from '@deepseek-ai/dsh-tools/testing'
import { CONFINEMENT_BY_MODE, confinementOf, dependsOnReads } from '../src/confine'

function execIn(mode: string | undefined): ToolExecution {
  const session = testSession({ id: 's', cwd: '/w/a', roots: ['/w/a', '/w/b'], mode })
  return testExecution('bash', {}, { session })
}

const WORKSPACE: ShellConfinement = { writable: ['/w/a', '/w/b'], network: false }
const READ_ONLY: ShellConfinement = { writable: [], network: false }

/** [mode, the command only reads, what it asks for]. */
const TABLE: [string, boolean, ShellConfinement | undefined][] = [
  ['ask', true, READ_ONLY],
  ['ask', false, undefined],
  ['auto-edit', true, WORKSPACE],
  ['auto-edit', false, WORKSPACE],
  ['read-only', true, READ_ONLY],
  ['read-only', false, READ_ONLY],
  ['full-access', true, undefined],
  ['full-access', false, undefined],
  ['plan', true, READ_ONLY],
  ['plan', false, undefined],
]

describe('the confinement a command asks for', () => {
  for (const [mode, reads, expected] of TABLE) {
    const what = reads ? 'a command that only reads' : 'any other command'
    const asks =
      expected === undefined ? 'none' : expected.writable.length ? 'the roots' : 'read-only'
    it(`in ${mode}, ${what} asks for ${asks}`, () => {
      expect(confinementOf(execIn(mode), { reads })).toEqual(expected)
    })
  }

  it('covers every mode of the table', () => {
    expect(TABLE.map(([mode]) => mode).sort()).toEqual(
      Object.keys(CONFINEMENT_BY_MODE)
        .flatMap((mode) => [mode, mode])
        .sort(),
    )
  })

  it('is none in an unknown mode or no mode', () => {
    for (const mode of ['toString', undefined]) {
      expect(confinementOf(execIn(mode), { reads: true })).toBeUndefined()
      expect(confinementOf(execIn(mode))).toBeUndefined()
    }
  })

  it('is none for a call that escalates, in every mode', () => {
    for (const mode of ['ask', 'auto-edit', 'read-only', 'full-access']) {
      expect(confinementOf(execIn(mode), { escalate: true, reads: true })).toBeUndefined()
      expect(confinementOf(execIn(mode), { escalate: true })).toBeUndefined()
    }
  })

  it('lets the network through when the app allows it', () => {
    expect(confinementOf(execIn('auto-edit'), { network: true })?.network).toBe(true)
    expect(confinementOf(execIn('ask'), { network: true, reads: true })?.network).toBe(true)
  })
})

describe('whether a command must be classified to be confined', () => {
  it('only where the mode confines a command that reads apart from any other', () => {
    const depends = Object.keys(CONFINEMENT_BY_MODE).filter((mode) => dependsOnReads(execIn(mode)))
    expect(depends).toEqual(['ask', 'plan'])
    expect(dependsOnReads(execIn('ask'), { escalate: true })).toBe(false)
  })
})
