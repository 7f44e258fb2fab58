import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { checkToolArguments, formatArgumentsProblems } from '../src/arguments'

const input = z.object({
  file_path: z.string().min(1),
  offset: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(2000).optional(),
  ratio: z.number().gt(0.5).lt(2).optional(),
  count: z.number().nonnegative().optional(),
  mode: z.enum(['fast', 'safe']).optional(),
  exact: z.literal('yes').optional(),
  replace_all: z.boolean().default(false),
  tags: z.array(z.string()).max(2).optional(),
  either: z.union([z.string(), z.number()]).optional(),
  pattern: z
    .string()
    .regex(/^[a-z]+$/)
    .optional(),
  email: z.email().optional(),
  nested: z.object({ depth: z.number() }).optional(),
  even: z.number().multipleOf(2).optional(),
  code: z.string().length(3).optional(),
})

function problemsOf(value: unknown): string[] {
  const check = checkToolArguments(input, value)
  if (check.ok) throw new Error('expected the check to fail')
  return check.problems
}

describe('valid arguments', () => {
  it('valid arguments parse with defaults applied', () => {
    expect(checkToolArguments(input, { file_path: '/a', offset: 2 })).toEqual({
      ok: true,
      args: { file_path: '/a', offset: 2, replace_all: false },
    })
  })

  it('undefined arguments count as an empty object', () => {
    expect(checkToolArguments(z.object({}), undefined)).toEqual({ ok: true, args: {} })
  })
})

describe('problem texts', () => {
  it.each([
    [{}, 'file_path: missing required field (expected a string)'],
    [{ file_path: 3 }, 'file_path: expected a string, got an integer'],
    [{ file_path: null }, 'file_path: expected a string, got null'],
    [{ file_path: '' }, 'file_path: must not be empty'],
    [{ file_path: '/a', offset: 0 }, 'offset: must be a positive integer, got 0'],
    [{ file_path: '/a', offset: 1.5 }, 'offset: expected an integer, got a number'],
    [{ file_path: '/a', offset: '10' }, 'offset: expected a number, got a string'],
    [{ file_path: '/a', limit: 0 }, 'limit: must be a positive integer, got 0'],
    [{ file_path: '/a', limit: 5000 }, 'limit: must be at most 2000, got 5000'],
    [{ file_path: '/a', ratio: 0.5 }, 'ratio: must be greater than 0.5, got 0.5'],
    [{ file_path: '/a', ratio: 3 }, 'ratio: must be less than 2, got 3'],
    [{ file_path: '/a', count: -1 }, 'count: must be a non-negative number, got -1'],
    [{ file_path: '/a', mode: 'slow' }, 'mode: expected one of "fast", "safe", got "slow"'],
    [{ file_path: '/a', exact: 'no' }, 'exact: expected "yes", got "no"'],
    [
      { file_path: '/a', replace_all: 'true' },
      'replace_all: expected a boolean (true or false), got a string',
    ],
    [{ file_path: '/a', tags: 'x' }, 'tags: expected an array, got a string'],
    [{ file_path: '/a', tags: ['a', 1] }, 'tags[1]: expected a string, got an integer'],
    [{ file_path: '/a', tags: ['a', 'b', 'c'] }, 'tags: must have at most 2 items'],
    [
      { file_path: '/a', either: true },
      'either: expected a string or a number, got a boolean (true)',
    ],
    [{ file_path: '/a', pattern: 'A1' }, 'pattern: must match the pattern /^[a-z]+$/'],
    [{ file_path: '/a', email: 'nope' }, 'email: must be a valid email'],
    [
      { file_path: '/a', nested: { depth: 'deep' } },
      'nested.depth: expected a number, got a string',
    ],
    [{ file_path: '/a', even: 3 }, 'even: must be a multiple of 2, got 3'],
    [{ file_path: '/a', code: 'ab' }, 'code: must be exactly 3 characters long, got 2 characters'],
  ])('%j is described as one problem', (value, text) => {
    expect(problemsOf(value)).toEqual([text])
  })

  it('arguments that are not an object are described as such', () => {
    expect(problemsOf('read a.txt')).toEqual(['arguments: expected an object, got a string'])
    expect(problemsOf(null)).toEqual(['arguments: expected an object, got null'])
    expect(problemsOf([1])).toEqual(['arguments: expected an object, got an array'])
  })

  it('an unknown field is refused with the field it probably meant', () => {
    expect(problemsOf({ filepath: '/a' })).toEqual([
      'filepath: unknown field (did you mean "file_path"?)',
      'file_path: missing required field (expected a string)',
    ])
    expect(problemsOf({ file_path: '/a', zzzzzzzz: 1 })).toEqual(['zzzzzzzz: unknown field'])
  })

  it('a loose object accepts unknown fields', () => {
    const loose = z.object({ a: z.string() }).loose()
    expect(checkToolArguments(loose, { a: 'x', b: 1 }).ok).toBe(true)
  })

  it('a strict object reports unknown fields through zod once', () => {
    const strict = z.object({ a: z.string() }).strict()
    expect(checkToolArguments(strict, { a: 'x', b: 1 })).toEqual({
      ok: false,
      problems: ['b: unknown field'],
    })
  })

  it('a refinement message is passed through with its field', () => {
    const refined = z
      .object({ old: z.string(), new: z.string() })
      .refine((args) => args.old !== args.new, { message: 'must differ from old', path: ['new'] })
    expect(checkToolArguments(refined, { old: 'a', new: 'a' })).toEqual({
      ok: false,
      problems: ['new: must differ from old'],
    })
  })
})

describe('the error text', () => {
  it('problems are joined after the tool name', () => {
    expect(formatArgumentsProblems('read', input, ['a: x', 'b: y'])).toBe(
      'Invalid arguments for "read": a: x; b: y',
    )
  })

  it('an unknown field adds the list of the tool fields', () => {
    const small = z.object({ file_path: z.string(), limit: z.number().optional() })
    const check = checkToolArguments(small, { file_path: '/a', lmit: 3 })
    expect(check.ok).toBe(false)
    if (check.ok) return
    expect(formatArgumentsProblems('read', small, check.problems)).toBe(
      'Invalid arguments for "read": lmit: unknown field (did you mean "limit"?). The fields of "read" are: file_path, limit',
    )
  })
})
