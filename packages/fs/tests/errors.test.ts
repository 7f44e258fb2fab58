import { describe, expect, it } from 'vitest'
import { FS_ERROR_CODES, FsError, isFsError } from '../src/index'
import {
  ambiguousEditError,
  notFoundError,
  notObservedError,
  staleVersionError,
  throwIfAborted,
  tooLargeError,
} from '../src/failures'

describe('FsError', () => {
  it('is an Error named FsError with a code, a path and a cause', () => {
    const cause = new Error('inner')
    const error = new FsError('FS_IO', 'broken', { path: '/a', cause })
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ name: 'FsError', code: 'FS_IO', message: 'broken', path: '/a' })
    expect(error.cause).toBe(cause)
  })

  it('has no cause when none is given', () => {
    expect('cause' in new FsError('FS_IO', 'broken')).toBe(false)
  })

  it('is recognised by isFsError, optionally by code', () => {
    const error = new FsError('FS_NOT_FOUND', 'gone')
    expect(isFsError(error)).toBe(true)
    expect(isFsError(error, 'FS_NOT_FOUND')).toBe(true)
    expect(isFsError(error, 'FS_IO')).toBe(false)
    expect(isFsError(Object.assign(new Error('x'), { code: 'FS_IO' }))).toBe(false)
  })

  it('lists every code once', () => {
    expect(new Set(FS_ERROR_CODES).size).toBe(FS_ERROR_CODES.length)
    expect(FS_ERROR_CODES).toContain('FS_INVALID_EDIT')
  })
})

describe('throwIfAborted', () => {
  it('throws FS_ABORTED only when the signal fired', () => {
    const controller = new AbortController()
    expect(() => throwIfAborted(controller.signal)).not.toThrow()
    expect(() => throwIfAborted(undefined)).not.toThrow()
    controller.abort()
    expect(() => throwIfAborted(controller.signal, '/a')).toThrow(
      expect.objectContaining({ code: 'FS_ABORTED', path: '/a' }),
    )
  })
})

describe('shared failures', () => {
  it('say what was wrong and what to do', () => {
    expect(notFoundError('/w/a').message).toBe(
      '/w/a does not exist. Check the path (relative paths resolve against the workspace) or create the file with a write.',
    )
    expect(staleVersionError('/w/a')).toMatchObject({ code: 'FS_STALE_VERSION', path: '/w/a' })
    expect(staleVersionError('/w/a').message).toContain('Read it again')
    expect(tooLargeError('/w/a', 10, 5).message).toContain('10 bytes, over the 5-byte limit')
  })

  it('carry the facts a caller words its own message from', () => {
    expect(new FsError('FS_IO', 'broken').details).toEqual({})
    expect(tooLargeError('/w/a', 10, 5).details).toEqual({ size: 10, limit: 5 })
    expect(ambiguousEditError('/w/a', 4).details).toEqual({ matches: 4 })
    expect(notObservedError('/w/a', 'edit')).toMatchObject({
      code: 'FS_NOT_OBSERVED',
      details: { operation: 'edit' },
    })
  })
})
