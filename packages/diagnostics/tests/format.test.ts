// How diagnostics read for the model and on a card: one line each, relative paths, a cap of
// 20 with a count, the word a title takes, and nothing said when nothing broke.
import { describe, expect, it } from 'vitest'
import {
  countIntroduced,
  diagnosticsDetails,
  formatDiagnostics,
  formatReport,
  presentDiagnostics,
} from '../src/index'
import type { Diagnostic } from '../src/index'

const error = (line: number): Diagnostic => ({
  path: '/w/src/count.ts',
  line,
  column: 10,
  severity: 'error',
  code: 'TS2322',
  message: "Type 'string' is not assignable to type 'number'.",
})

describe('the lines', () => {
  it('read file:line:col severity code: message, relative to the workspace', () => {
    expect(formatDiagnostics([error(2)], { cwd: '/w' })).toEqual([
      "src/count.ts:2:10 error TS2322: Type 'string' is not assignable to type 'number'.",
    ])
    expect(formatDiagnostics([error(2)], { cwd: '/elsewhere' })[0]).toMatch(
      /^\/w\/src\/count\.ts:2:10 /,
    )
  })

  it('stop at 20 and count the rest', () => {
    const lines = formatDiagnostics(Array.from({ length: 23 }, (_, i) => error(i + 1)))
    expect(lines).toHaveLength(21)
    expect(lines[20]).toBe('… and 3 more')
  })

  it('count errors and warnings apart, singular for one', () => {
    const warning: Diagnostic = { ...error(3), severity: 'warning' }
    expect(countIntroduced([error(1)])).toBe('1 new error')
    expect(countIntroduced([error(1), error(2), warning])).toBe('2 new errors, 1 new warning')
    expect(countIntroduced([])).toBe('')
  })
})

describe('a report', () => {
  it('says nothing when nothing broke or no server checks the file', () => {
    expect(formatReport({ status: 'ready', introduced: [] })).toBe('')
    expect(formatReport({ status: 'none', introduced: [] })).toBe('')
    expect(diagnosticsDetails({ status: 'ready', introduced: [] })).toBeUndefined()
  })

  it('says when the server was not ready, and how long it was waited for', () => {
    const text = formatReport(
      { status: 'not-ready', introduced: [], server: 'typescript' },
      { waitedMs: 2000 },
    )
    expect(text).toBe(
      'Diagnostics were not ready within 2 s (the typescript server is still working); call the diagnostics tool later to see the errors.',
    )
  })

  it('says the diagnostics wait for the person, on the result and the card', () => {
    const report = {
      status: 'not-ready' as const,
      introduced: [],
      server: 'typescript',
      waitingFor: 'answer' as const,
    }
    expect(formatReport(report, { waitedMs: 2000 })).toBe(
      "Diagnostics wait for the person's answer: they were asked whether the project's language servers may start here. Once they allow it, call the diagnostics tool to see the errors.",
    )
    expect(presentDiagnostics(diagnosticsDetails(report))).toEqual({
      summary: 'diagnostics wait for your answer',
      text: "Diagnostics start once you allow the project's language servers.",
    })
  })

  it('gives a card its word and its lines', () => {
    const details = diagnosticsDetails({
      status: 'ready',
      introduced: [error(2)],
      server: 'typescript',
    })
    expect(presentDiagnostics(details, '/w')).toEqual({
      summary: '1 new error',
      text: "src/count.ts:2:10 error TS2322: Type 'string' is not assignable to type 'number'.",
    })
    expect(presentDiagnostics({ status: 'ready' })).toBeUndefined()
  })
})
