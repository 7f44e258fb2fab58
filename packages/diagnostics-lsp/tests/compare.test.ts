// What a change introduced: problems matched without their line (an edit that shifts old errors
// down makes none new), each earlier one matching one later one; and the text before an edit
// rebuilt from its excerpt.
import { describe, expect, it } from 'vitest'
import type { Diagnostic } from '@deepseek-ai/dsh-diagnostics'
import { introducedBy, textBefore } from '../src/compare'

const at = (line: number, message = 'm'): Diagnostic => ({
  path: '/a.ts',
  line,
  column: 1,
  severity: 'error',
  code: 'TS1',
  message,
})

describe('introducedBy', () => {
  it('leaves out old problems that moved to another line', () => {
    expect(introducedBy([at(1), at(5, 'other')], [at(3), at(7, 'other')])).toEqual([])
  })

  it('counts a second copy of an old problem as new', () => {
    expect(introducedBy([at(1)], [at(2), at(9)])).toEqual([at(9)])
  })
})

describe('textBefore', () => {
  it('rebuilds the whole old text from an excerpt of the changed lines', () => {
    const after = 'a\nb\nNEW\nd\n'
    const change = {
      path: '/a.ts',
      excerpt: { startLine: 2, oldText: 'b\nold\n', newText: 'b\nNEW\n' },
    }
    expect(textBefore(change, after)).toBe('a\nb\nold\nd\n')
  })

  it('gives up when the excerpt does not match the file', () => {
    const change = { path: '/a.ts', excerpt: { startLine: 1, oldText: 'x', newText: 'y' } }
    expect(textBefore(change, 'z\n')).toBeUndefined()
    expect(textBefore({ path: '/a.ts', before: null }, 'z\n')).toBeNull()
  })
})
