import { describe, expect, it } from 'vitest'
import { renderDiff } from '../src/diff-render'

const lines = (count: number, prefix = 'line'): string =>
  Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`).join('\n') + '\n'

describe('the demo diff', () => {
  it('a one-line change shows the removal, the addition and three lines of context', () => {
    const before = lines(10)
    const after = before.replace('line 5\n', 'line five\n')
    expect(renderDiff(before, after)).toEqual([
      '  line 2',
      '  line 3',
      '  line 4',
      '- line 5',
      '+ line five',
      '  line 6',
      '  line 7',
      '  line 8',
    ])
  })

  it('a created file is all additions', () => {
    expect(renderDiff(null, 'a\nb\n')).toEqual(['+ a', '+ b'])
  })

  it('two distant changes make two hunks separated by @@', () => {
    const before = lines(20)
    const after = before.replace('line 2\n', 'two\n').replace('line 18\n', 'eighteen\n')
    const out = renderDiff(before, after, 1)
    expect(out).toEqual([
      '  line 1',
      '- line 2',
      '+ two',
      '  line 3',
      '@@',
      '  line 17',
      '- line 18',
      '+ eighteen',
      '  line 19',
    ])
  })

  it('inserted lines in the middle are additions only', () => {
    expect(renderDiff('a\nc\n', 'a\nb\nc\n', 0)).toEqual(['+ b'])
  })

  it('identical texts give no lines', () => {
    expect(renderDiff('same\n', 'same\n')).toEqual([])
  })

  it('crlf line endings do not show as changes', () => {
    expect(renderDiff('a\r\nb\r\n', 'a\r\nB\r\n', 1)).toEqual(['  a', '- b', '+ B'])
  })
})
