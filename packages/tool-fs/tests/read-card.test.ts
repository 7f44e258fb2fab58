import { describe, expect, it } from 'vitest'
import { fenced, languageOf, readCardContent, readSummary } from '../src/read-card'
import { LINE_TRUNCATED_SUFFIX } from '../src/read-render'

const window = (lines: string[], startLine = 1, totalLines?: number, capped = false) => ({
  path: '/w/a.ts',
  lines,
  startLine,
  totalLines,
  capped,
})

describe('the read card', () => {
  it('sums up the window in one line', () => {
    expect(readSummary(window(['a', 'b', 'c', 'd', 'e', 'f'], 5, 14))).toBe('Lines 5–10 of 14')
    expect(readSummary(window(['a'], 3, 14))).toBe('Line 3 of 14')
    expect(readSummary(window(['a', 'b'], 1, 2))).toBe('2 lines')
    expect(readSummary(window(['a'], 1, 1))).toBe('1 line')
    expect(readSummary(window([], 1, 0))).toBe('Empty file')
    expect(readSummary(window(['a', 'b'], 7, undefined, true))).toBe(
      'Lines 7–8 (the read stopped at 50 KiB)',
    )
  })

  it('names only the range of lines read alone, whose total is not known', () => {
    expect(readSummary(window(['d', 'e'], 4))).toBe('Lines 4–5')
    expect(readSummary(window(['d'], 4))).toBe('Line 4')
  })

  it('shows the text as the file has it, fenced with the language of its extension', () => {
    const content = readCardContent(window(['const a = 1', '', '  b()'], 2, 9))
    expect(content).toEqual([
      { type: 'text', text: 'Lines 2–4 of 9' },
      { type: 'text', text: '```typescript\nconst a = 1\n\n  b()\n```' },
    ])
    const text = JSON.stringify(content)
    for (const framing of ['<path>', '<content>', '2: ', 'offset=']) {
      expect(text).not.toContain(framing)
    }
  })

  it('shows a cut line without the model note and says how many were cut', () => {
    const long = 'x'.repeat(2000) + LINE_TRUNCATED_SUFFIX
    const [summary, block] = readCardContent(window(['a', long], 1, 2))
    expect(summary).toEqual({ type: 'text', text: '2 lines; 1 long line cut at 2000 characters' })
    expect(block).toEqual({
      type: 'text',
      text: `\`\`\`typescript\na\n${'x'.repeat(2000)}\n\`\`\``,
    })
  })

  it('gives an empty file its summary alone', () => {
    expect(readCardContent(window([], 1, 0))).toEqual([{ type: 'text', text: 'Empty file' }])
  })

  it('fences text holding backticks with a longer fence', () => {
    expect(fenced('a ``` b ```` c', 'markdown')).toBe('`````markdown\na ``` b ```` c\n`````')
  })

  it('tags a fence by extension or file name, and leaves unknown ones bare', () => {
    expect(languageOf('/w/src/a.TS')).toBe('typescript')
    expect(languageOf('/w/main.py')).toBe('python')
    expect(languageOf('/w/Dockerfile')).toBe('dockerfile')
    expect(languageOf('/w/notes.unknownext')).toBe('')
    expect(languageOf('/w/LICENSE')).toBe('')
  })
})
