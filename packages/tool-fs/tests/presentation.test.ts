import { describe, expect, it } from 'vitest'
import { presentEditCall, presentEditResult } from '../src/edit'
import { formatEditClip, titlePath } from '../src/present'
import { presentReadCall } from '../src/read'
import { presentWriteCall, presentWriteResult } from '../src/write'

const ok = { content: [{ type: 'text' as const, text: 'done' }], isError: false }

describe('call cards', () => {
  it('presents a read with no window as the seed does', () => {
    expect(presentReadCall({ file_path: 'src/a.ts' })).toEqual({
      title: 'Read src/a.ts',
      kind: 'read',
      locations: [{ path: 'src/a.ts' }],
    })
  })

  it('presents a read window with its offset, limit and line', () => {
    expect(presentReadCall({ file_path: '/w/a.ts', offset: 10, limit: 20 })).toEqual({
      title: 'Read /w/a.ts',
      kind: 'read',
      rawInput: 'offset 10, limit 20',
      locations: [{ path: '/w/a.ts', line: 10 }],
    })
    expect(presentReadCall({ file_path: '/w/a.ts', limit: 5 })).toEqual({
      title: 'Read /w/a.ts',
      kind: 'read',
      rawInput: 'limit 5',
      locations: [{ path: '/w/a.ts' }],
    })
    expect(presentReadCall({ file_path: '/w/a.ts', offset: 3 }).rawInput).toBe('offset 3')
  })

  it('presents a write as the seed does', () => {
    expect(presentWriteCall({ file_path: '/w/b.txt', content: 'x' })).toEqual({
      title: 'Write /w/b.txt',
      kind: 'edit',
      locations: [{ path: '/w/b.txt' }],
    })
  })

  it('presents an edit with the clipped, quoted old and new text', () => {
    const args = { file_path: '/w/c.ts', old_string: 'const a = 1', new_string: 'const a = 2' }
    expect(presentEditCall(args)).toEqual({
      title: 'Edit /w/c.ts',
      kind: 'edit',
      rawInput: '"const a = 1" → "const a = 2"',
      locations: [{ path: '/w/c.ts' }],
    })
  })

  it('shows a title path relative to the view cwd only when inside it', () => {
    const view = { cwd: '/w/proj' }
    expect(presentReadCall({ file_path: '/w/proj/src/a.ts' }, view).title).toBe('Read src/a.ts')
    expect(presentWriteCall({ file_path: '/w/other/a.ts', content: '' }, view).title).toBe(
      'Write /w/other/a.ts',
    )
    expect(presentWriteCall({ file_path: '/w/projx/a.ts', content: '' }, view).title).toBe(
      'Write /w/projx/a.ts',
    )
    expect(titlePath('rel/a.ts', view)).toBe('rel/a.ts')
    expect(titlePath('/w/proj', view)).toBe('/w/proj')
  })

  it('keeps locations as given whatever the view', () => {
    const card = presentReadCall({ file_path: '/w/proj/a.ts', offset: 2 }, { cwd: '/w/proj' })
    expect(card.locations).toEqual([{ path: '/w/proj/a.ts', line: 2 }])
  })
})

describe('the edit clip', () => {
  it('escapes newlines and quotes inside each side', () => {
    expect(formatEditClip('say "hi"\n', 'tab\there')).toBe('"say \\"hi\\"\\n" → "tab\\there"')
  })

  it('clips each side to 40 characters plus an ellipsis', () => {
    const long = 'a'.repeat(41)
    expect(formatEditClip(long, 'b'.repeat(40))).toBe(`"${'a'.repeat(40)}…" → "${'b'.repeat(40)}"`)
  })

  it('clips before quoting so an escape is never cut in half', () => {
    const quotes = '"'.repeat(50)
    expect(formatEditClip(quotes, '')).toBe(`"${'\\"'.repeat(40)}…" → ""`)
  })

  it('does not split a surrogate pair at the clip', () => {
    const text = `${'x'.repeat(39)}😀tail`
    expect(formatEditClip(text, 'y')).toBe(`"${'x'.repeat(39)}…" → "y"`)
  })
})

describe('result cards', () => {
  it('shows a created file as a diff from nothing at line 1', () => {
    const details = {
      path: '/w/n.txt',
      operation: 'create' as const,
      lines: 2,
      change: { oldText: null, newText: 'a\nb\n', line: 1 },
    }
    expect(
      presentWriteResult({ file_path: 'n.txt', content: 'a\nb\n' }, { ...ok, details }),
    ).toEqual({
      title: 'Created n.txt',
      content: [{ type: 'diff', path: '/w/n.txt', oldText: null, newText: 'a\nb\n' }],
      locations: [{ path: '/w/n.txt', line: 1 }],
    })
  })

  it('shows an updated file as a diff at the first changed line', () => {
    const details = {
      path: '/w/u.txt',
      operation: 'update' as const,
      lines: 3,
      change: { oldText: 'a\nb\nc\n', newText: 'a\nb\nC\n', line: 3 },
    }
    expect(
      presentWriteResult(
        { file_path: '/w/u.txt', content: details.change.newText },
        { ...ok, details },
        { cwd: '/w' },
      ),
    ).toEqual({
      title: 'Updated u.txt',
      content: [{ type: 'diff', path: '/w/u.txt', oldText: 'a\nb\nc\n', newText: 'a\nb\nC\n' }],
      locations: [{ path: '/w/u.txt', line: 3 }],
    })
  })

  it('shows a note instead of a diff when the replaced content is unknown', () => {
    const details = { path: '/w/u.txt', operation: 'update' as const, lines: 2 }
    const card = presentWriteResult({ file_path: '/w/u.txt', content: 'x\ny' }, { ...ok, details })
    expect(card?.title).toBe('Updated /w/u.txt')
    expect(card?.content).toEqual([
      {
        type: 'text',
        text: 'Replaced the whole file (2 lines); the previous content was not kept, so no diff is shown.',
      },
    ])
  })

  it('shows an edit as the excerpt diff at its line with the replacement count', () => {
    const excerpt = { startLine: 10, oldText: 'x = 1\n', newText: 'x = 2\n', whole: false }
    const args = { file_path: '/w/e.ts', old_string: '1', new_string: '2' }
    const one = { path: '/w/e.ts', replacements: 1, line: 12, excerpt }
    expect(presentEditResult(args, { ...ok, details: one })).toEqual({
      title: 'Edited /w/e.ts',
      content: [{ type: 'diff', path: '/w/e.ts', oldText: 'x = 1\n', newText: 'x = 2\n' }],
      locations: [{ path: '/w/e.ts', line: 12 }],
    })
    const three = { ...one, replacements: 3 }
    expect(presentEditResult(args, { ...ok, details: three })?.title).toBe(
      'Edited /w/e.ts (3 replacements)',
    )
  })

  it('gives no result card for details of another shape', () => {
    const args = { file_path: '/w/e.ts', old_string: '1', new_string: '2' }
    expect(presentEditResult(args, { ...ok, details: { path: 1 } as never })).toBeUndefined()
    expect(
      presentWriteResult({ file_path: 'a', content: '' }, { ...ok, details: 'x' as never }),
    ).toBeUndefined()
  })
})
