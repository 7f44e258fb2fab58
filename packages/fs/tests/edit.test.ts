import { describe, expect, it } from 'vitest'
import { FsError } from '../src/index'
import { EDIT_EXCERPT_WHOLE_MAX, findMatches, planTextEdit } from '../src/edit'
import { editedBytePieces } from '../src/edit-bytes'
import { decodeText, encodeText } from '../src/text'
import { applyTextEdit } from './helpers/edit'

const codeOf = (work: () => unknown): string | undefined => {
  try {
    work()
  } catch (error) {
    return error instanceof FsError ? error.code : 'not an FsError'
  }
  return undefined
}

describe('matching', () => {
  it('finds non-overlapping literal matches left to right', () => {
    expect(findMatches('aaaaa', 'aa')).toEqual([
      { start: 0, end: 2 },
      { start: 2, end: 4 },
    ])
  })

  it('matches an LF line break against CRLF and gives file offsets', () => {
    expect(findMatches('x\r\ny\r\nx\r\ny', 'x\ny')).toEqual([
      { start: 0, end: 4 },
      { start: 6, end: 10 },
    ])
  })

  it('matches a CRLF line break in oldString against an LF file', () => {
    expect(findMatches('a\nb', 'a\r\nb')).toEqual([{ start: 0, end: 3 }])
  })

  it('never splits a CRLF pair at a match edge', () => {
    expect(findMatches('a\r\nb', '\nb')).toEqual([{ start: 1, end: 4 }])
    expect(findMatches('a\r\nb', 'a\n')).toEqual([{ start: 0, end: 3 }])
  })

  it('treats regular expression characters as text', () => {
    expect(findMatches('a.b a+b', 'a+b')).toEqual([{ start: 4, end: 7 }])
  })
})

describe('replacing', () => {
  it('inserts replacement patterns literally', () => {
    expect(applyTextEdit('x', { oldString: 'x', newString: "$&$`$'$1$$" }).text).toBe("$&$`$'$1$$")
  })

  it('takes each line ending of the matched lines for the replacement lines', () => {
    const result = applyTextEdit('a\r\nb\nc\r\n', { oldString: 'a\nb\nc', newString: 'A\nB\nC\nD' })
    expect(result.text).toBe('A\r\nB\nC\nD\r\n')
  })

  it('takes the ending of the line around a one-line match', () => {
    expect(applyTextEdit('p\r\nq\r\n', { oldString: 'q', newString: 'q1\nq2' }).text).toBe(
      'p\r\nq1\r\nq2\r\n',
    )
    expect(applyTextEdit('p\r\nq', { oldString: 'q', newString: 'q1\nq2' }).text).toBe(
      'p\r\nq1\r\nq2',
    )
    expect(applyTextEdit('q', { oldString: 'q', newString: 'q1\r\nq2' }).text).toBe('q1\nq2')
  })

  it('replaces every match under replaceAll and reports the first line', () => {
    const result = applyTextEdit('a\nb\na\n', { oldString: 'a', newString: 'z', replaceAll: true })
    expect(result).toMatchObject({ text: 'z\nb\nz\n', replacements: 2, line: 1 })
  })

  it('reports the line in a CRLF file counting CRLF as one break', () => {
    expect(applyTextEdit('a\r\nb\r\nc', { oldString: 'c', newString: 'd' }).line).toBe(3)
  })
})

describe('refusals', () => {
  it('refuses empty, identical and non-string requests with FS_INVALID_EDIT', () => {
    expect(codeOf(() => applyTextEdit('a', { oldString: '', newString: 'b' }))).toBe(
      'FS_INVALID_EDIT',
    )
    expect(codeOf(() => applyTextEdit('a', { oldString: 'a', newString: 'a' }))).toBe(
      'FS_INVALID_EDIT',
    )
    const bad = { oldString: 'a', newString: 1 } as unknown as {
      oldString: string
      newString: string
    }
    expect(codeOf(() => applyTextEdit('a', bad))).toBe('FS_INVALID_EDIT')
  })

  it('refuses a missing match with FS_EDIT_NOT_FOUND naming the path', () => {
    try {
      applyTextEdit('abc', { oldString: 'x', newString: 'y' }, '/w/a.txt')
      expect.unreachable()
    } catch (error) {
      expect(error).toMatchObject({ code: 'FS_EDIT_NOT_FOUND', path: '/w/a.txt' })
      expect((error as Error).message).toContain('/w/a.txt')
    }
  })

  it('refuses several matches with FS_AMBIGUOUS_EDIT stating the count', () => {
    try {
      applyTextEdit('ab ab ab ab', { oldString: 'ab', newString: 'c' })
      expect.unreachable()
    } catch (error) {
      expect(error).toMatchObject({ code: 'FS_AMBIGUOUS_EDIT' })
      expect((error as Error).message).toBe(
        'The text to replace occurs 4 times in the file. Include more surrounding lines so it matches exactly once, or set replaceAll to replace all 4.',
      )
    }
  })
})

describe('excerpt', () => {
  const lines = (count: number, from = 1) =>
    Array.from({ length: count }, (_, index) => `row ${index + from}\n`).join('')

  it('is the whole text when the file is small', () => {
    const { excerpt } = applyTextEdit('a\nb\n', { oldString: 'b', newString: 'c' })
    expect(excerpt).toEqual({ startLine: 1, oldText: 'a\nb\n', newText: 'a\nc\n', whole: true })
  })

  it('covers first to last replacement with three lines of context in a large file', () => {
    const text = lines(20_000)
    expect(text.length).toBeGreaterThan(EDIT_EXCERPT_WHOLE_MAX)
    const { excerpt } = applyTextEdit(text, {
      oldString: 'row 100\nrow 101\n',
      newString: 'one line\n',
    })
    expect(excerpt).toEqual({
      startLine: 97,
      oldText: lines(8, 97),
      newText: `${lines(3, 97)}one line\n${lines(3, 102)}`,
      whole: false,
    })
  })

  it('falls back to the first replacement when the replacements lie far apart', () => {
    const text = `${lines(10)}MARK\n${lines(30_000, 11)}MARK\n`
    const { excerpt } = applyTextEdit(text, { oldString: 'MARK', newString: 'X', replaceAll: true })
    expect(excerpt.startLine).toBe(8)
    expect(excerpt.oldText).toBe(`${lines(3, 8)}MARK\n${lines(3, 11)}`)
    expect(excerpt.newText).toBe(`${lines(3, 8)}X\n${lines(3, 11)}`)
  })
})

describe('edited bytes', () => {
  const edit = (bytes: Uint8Array, oldString: string, newString: string) => {
    const { text, bom } = decodeText(bytes)
    const plan = planTextEdit(text, { oldString, newString, replaceAll: true })
    return editedBytePieces(bytes, text, plan.matches, bom)
  }
  const joined = (pieces: Uint8Array[]) => Buffer.concat(pieces).toString('utf8')

  it('equals the encoded text of applyTextEdit for multi-byte text and a BOM', () => {
    const text = 'ü a😀\r\nb ü\r\nü'
    const bytes = encodeText(text, true)
    const expected = encodeText(
      applyTextEdit(text, { oldString: 'ü', newString: '€\n', replaceAll: true }).text,
      true,
    )
    expect(Buffer.concat(edit(bytes, 'ü', '€\n')).equals(expected)).toBe(true)
  })

  it('gives the bytes outside the matches as views of the file, not copies', () => {
    const bytes = encodeText('keep é MARK keep too')
    const pieces = edit(bytes, 'MARK', 'X')
    expect(joined(pieces)).toBe('keep é X keep too')
    expect(pieces[0]!.buffer).toBe(bytes.buffer)
    expect(pieces[2]!.buffer).toBe(bytes.buffer)
  })

  it('leaves out empty pieces at the edges and between adjacent matches', () => {
    const pieces = edit(encodeText('aaaa'), 'aa', '')
    expect(pieces).toEqual([])
    expect(joined(edit(encodeText('ab'), 'ab', 'c'))).toBe('c')
  })
})
