// The one table of which confinement a command asks for, by the session's mode: the roots in
// auto-edit, nothing writable in read-only, none in ask and full-access, none for a call that
// escalates or has no session; the network only when the app allows it.
import { describe, expect, it } from 'vitest'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { confinementOf } from '../src/confine'

function execIn(mode: string | undefined): ToolExecution {
  const header = { id: 's', cwd: '/w/a', roots: ['/w/a', '/w/b'], ...(mode && { mode }) }
  return { callId: 'c', name: 'bash', arguments: {}, agent: { session: { header } } }
}

describe('the confinement a command asks for', () => {
  it('is the session roots in auto-edit', () => {
    expect(confinementOf(execIn('auto-edit'))).toEqual({
      writable: ['/w/a', '/w/b'],
      network: false,
    })
  })

  it('is nothing writable in read-only', () => {
    expect(confinementOf(execIn('read-only'))).toEqual({ writable: [], network: false })
  })

  it('is none in ask, full-access, an unknown mode or no mode', () => {
    for (const mode of ['ask', 'full-access', 'toString', undefined]) {
      expect(confinementOf(execIn(mode))).toBeUndefined()
    }
  })

  it('is none for a call that escalates, in every mode', () => {
    for (const mode of ['ask', 'auto-edit', 'read-only', 'full-access']) {
      expect(confinementOf(execIn(mode), { escalate: true })).toBeUndefined()
    }
  })

  it('is none for a call without a session', () => {
    expect(confinementOf({ callId: 'c', name: 'bash', arguments: {} })).toBeUndefined()
  })

  it('lets the network through when the app allows it', () => {
    expect(confinementOf(execIn('auto-edit'), { network: true })?.network).toBe(true)
  })
})
