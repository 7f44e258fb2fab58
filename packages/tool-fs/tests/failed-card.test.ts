import { describe, expect, it } from 'vitest'
import { presentEditResult } from '../src/edit'
import { presentFailure, relativeInside } from '../src/present'
import { presentReadResult } from '../src/read'
import { presentWriteResult } from '../src/write'

const failed = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: true })

describe('failed cards', () => {
  it('show workspace paths relative, as the titles do', () => {
    const result = failed('Error: /w/p/src/a.ts has changed since it was last read.')
    const args = { file_path: '/w/p/src/a.ts', old_string: 'a', new_string: 'b' }
    expect(presentEditResult(args, result, { cwd: '/w/p' })).toEqual({
      content: [{ type: 'text', text: 'Error: src/a.ts has changed since it was last read.' }],
    })
    expect(
      presentWriteResult({ file_path: 'a.ts', content: '' }, failed('Error: "/w/p/a.ts"'), {
        cwd: '/w/p',
      }),
    ).toEqual({ content: [{ type: 'text', text: 'Error: "a.ts"' }] })
    expect(
      presentReadResult({ file_path: 'x' }, failed('Error: (/w/p/x)'), { cwd: '/w/p' }),
    ).toEqual({ content: [{ type: 'text', text: 'Error: (x)' }] })
  })

  it('leave paths outside the workspace, and every path without a cwd, as the model got them', () => {
    const text = 'Error: /w/px/a.ts and /w/other/b.ts and /w/p itself, /w/p/ alone, x/w/p/c'
    expect(relativeInside(text, '/w/p')).toBe(text)
    expect(presentFailure(failed('Error: /w/p/a.ts'))).toEqual({
      content: [{ type: 'text', text: 'Error: /w/p/a.ts' }],
    })
  })

  it('make every workspace path of a text relative, at the start of a line too', () => {
    expect(relativeInside('/w/p/a.ts is gone\nsee /w/p/b/c.ts, /w/p/d', '/w/p/')).toBe(
      'a.ts is gone\nsee b/c.ts, d',
    )
  })
})
