import { describe, expect, it } from 'vitest'
import { FsError } from '@deepseek-ai/dsh-fs'
import { toFsError } from '../src/errors'

const nodeError = (code: string) => Object.assign(new Error(`${code}: something`), { code })

describe('node error mapping', () => {
  it.each([
    ['ENOENT', 'FS_NOT_FOUND'],
    ['ENOTDIR', 'FS_NOT_FOUND'],
    ['EISDIR', 'FS_NOT_REGULAR_FILE'],
    ['EACCES', 'FS_PERMISSION_DENIED'],
    ['EPERM', 'FS_PERMISSION_DENIED'],
    ['EROFS', 'FS_PERMISSION_DENIED'],
    ['ENOSPC', 'FS_IO'],
    ['EDQUOT', 'FS_IO'],
    ['EIO', 'FS_IO'],
    ['ELOOP', 'FS_IO'],
    ['ABORT_ERR', 'FS_ABORTED'],
  ])('maps %s to %s', (code, expected) => {
    const mapped = toFsError(nodeError(code), '/w/a.txt')
    expect(mapped).toBeInstanceOf(FsError)
    expect(mapped.code).toBe(expected)
    expect(mapped.path).toBe('/w/a.txt')
    expect(mapped.message).toContain('/w/a.txt')
  })

  it('names the Node code of an I/O error and keeps the cause', () => {
    const cause = nodeError('EIO')
    const mapped = toFsError(cause, '/w/a.txt')
    expect(mapped.message).toBe(
      'The disk reported an error for /w/a.txt (EIO): EIO: something. Retry; if it persists, check the disk and the path.',
    )
    expect(mapped.cause).toBe(cause)
  })

  it('says the disk is full and the file was kept on ENOSPC', () => {
    expect(toFsError(nodeError('ENOSPC'), '/w/a.txt').message).toBe(
      'The disk is full (ENOSPC) while writing /w/a.txt; the file was left as it was. Free some space, then retry.',
    )
  })

  it('maps a value without a code to FS_IO', () => {
    const mapped = toFsError('weird', '/w/a.txt')
    expect(mapped.code).toBe('FS_IO')
    expect(mapped.message).toContain('no error code')
  })

  it('passes an FsError through unchanged', () => {
    const original = new FsError('FS_STALE_VERSION', 'stale')
    expect(toFsError(original, '/w/a.txt')).toBe(original)
  })
})
