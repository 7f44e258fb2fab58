// codedError and guardOf: the one shape every package's errors take, and what the registry
// reports of a thrown one (its name and code), so a class built here reads as a hand-written one.
import { describe, expect, it } from 'vitest'
import { codedError, guardOf } from '../src/coded-error'
import ToolRegistry, { ToolError, isToolError } from '../src/index'
import { testExecution } from '../src/testing'
import { Context } from 'cordis'
import { z } from 'zod'

const SAMPLE_CODES = ['SAMPLE_ONE', 'SAMPLE_TWO'] as const

class SampleError extends codedError('SampleError', SAMPLE_CODES) {}

class LocatedError extends codedError('LocatedError', SAMPLE_CODES) {
  readonly path?: string

  constructor(code: (typeof SAMPLE_CODES)[number], message: string, path?: string) {
    super(code, message)
    this.path = path
  }
}

const isSampleError = guardOf(SampleError)
const isLocatedError = guardOf(LocatedError)

describe('codedError', () => {
  it('gives an Error with the package name, its code, its message and the codes in order', () => {
    const error = new SampleError('SAMPLE_TWO', 'the second thing failed')
    expect(error).toBeInstanceOf(Error)
    expect(error).toBeInstanceOf(SampleError)
    expect(error.name).toBe('SampleError')
    expect(error.code).toBe('SAMPLE_TWO')
    expect(error.message).toBe('the second thing failed')
    expect(String(error)).toBe('SampleError: the second thing failed')
    expect(SampleError.codes).toEqual(['SAMPLE_ONE', 'SAMPLE_TWO'])
    expect(SampleError.name).toBe('SampleError')
  })

  it('keeps a given cause and has no cause property without one', () => {
    const cause = new Error('disk full')
    expect(new SampleError('SAMPLE_ONE', 'x', { cause }).cause).toBe(cause)
    expect('cause' in new SampleError('SAMPLE_ONE', 'x')).toBe(false)
    expect('cause' in new SampleError('SAMPLE_ONE', 'x', { cause: undefined })).toBe(false)
  })

  it('lets a package add the fields its errors carry', () => {
    const error = new LocatedError('SAMPLE_ONE', 'nothing there', '/a/b')
    expect(error.path).toBe('/a/b')
    expect(error.name).toBe('LocatedError')
    expect(isLocatedError(error, 'SAMPLE_ONE')).toBe(true)
  })
})

describe('guardOf', () => {
  it('tells a package error from others, and by code when one is given', () => {
    const error = new SampleError('SAMPLE_ONE', 'x')
    expect(isSampleError(error)).toBe(true)
    expect(isSampleError(error, 'SAMPLE_ONE')).toBe(true)
    expect(isSampleError(error, 'SAMPLE_TWO')).toBe(false)
    expect(isSampleError(new LocatedError('SAMPLE_ONE', 'x'))).toBe(false)
    expect(isSampleError(Object.assign(new Error('x'), { code: 'SAMPLE_ONE' }))).toBe(false)
    expect(isSampleError('SAMPLE_ONE')).toBe(false)
    expect(isToolError(new ToolError('TOOL_UNKNOWN', 'x'), 'TOOL_UNKNOWN')).toBe(true)
  })
})

describe('a thrown coded error', () => {
  it('becomes an error result with its name and code', async () => {
    const ctx = new Context()
    await ctx.plugin(ToolRegistry)
    ctx.tools.register({
      name: 'fails',
      description: 'Always fails.',
      input: z.object({}),
      execute: () => {
        throw new SampleError('SAMPLE_TWO', 'the second thing failed')
      },
    })
    const result = await ctx.tools.execute(testExecution('fails', {}))
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Error: the second thing failed' }],
      error: { name: 'SampleError', code: 'SAMPLE_TWO' },
    })
  })
})
