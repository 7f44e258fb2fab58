// Path resolution for the local disk. `displayPath` is lexical: the path made absolute against
// the caller's cwd (or the provider's), so the model sees the path it asked for. `targetKey`
// is physical: the real path of the file with every symlink followed, so a link and its
// target share one key. For a path that does not exist yet, the key is the real path of its
// nearest existing ancestor plus the rest, so it is the same key once the file is created; a
// dangling symlink is followed to where it points, so writing it creates that file.
// `cwd` is a base, not a sandbox: `..` and absolute paths leave it freely.
import { readlink, realpath } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { FsError, type FsResolveOptions, type FsTarget } from '@deepseek-ai/dsh-fs'
import { hasNodeCode, toFsError } from './errors'

const MAX_LINKS = 40

/**
 * Resolves paths for one disk. Within one tool call (FsResolveOptions.call) each absolute path
 * is walked once: the permission layer's realPath and the tool's resolve share the walk, so
 * one call sees one answer for where a path is (and pays for one realpath, not two).
 */
export class PathResolver {
  /** The strict walks of each call, by absolute path; a call's map goes with the call. */
  private readonly calls = new WeakMap<object, Map<string, Promise<string>>>()

  constructor(private readonly base: string) {}

  async resolve(path: string, options?: FsResolveOptions): Promise<FsTarget> {
    const displayPath = this.absolute(path, options)
    return { inputPath: path, displayPath, targetKey: await this.physical(displayPath, options) }
  }

  /**
   * The real path of `path` for scope decisions: like the target key, but a path the disk
   * will not explain (a loop of links, a directory this process may not search) is an FsError
   * rather than its lexical spelling, so a caller never takes an unknown place for a known one.
   */
  async realPath(path: string, options?: FsResolveOptions): Promise<string> {
    return this.strict(this.absolute(path, options), options?.call)
  }

  private absolute(path: string, options: FsResolveOptions | undefined): string {
    checkPathText(path)
    return resolve(this.base, options?.cwd ?? '', path)
  }

  /** The target key: the strict real path when the disk tells it, else physicalPath's answer. */
  private physical(absolute: string, options: FsResolveOptions | undefined): Promise<string> {
    if (options?.call === undefined) return physicalPath(absolute)
    return this.strict(absolute, options.call).catch(() => physicalPath(absolute))
  }

  private strict(absolute: string, call: object | undefined): Promise<string> {
    if (call === undefined) return strictRealPath(absolute)
    let walks = this.calls.get(call)
    if (walks === undefined) {
      walks = new Map()
      this.calls.set(call, walks)
    }
    let walked = walks.get(absolute)
    if (walked === undefined) {
      walked = strictRealPath(absolute)
      walks.set(absolute, walked)
    }
    return walked
  }
}

function strictRealPath(absolute: string): Promise<string> {
  return walk(absolute, 0, (error) => {
    throw toFsError(error, absolute)
  })
}

/**
 * The real path `absolute` stands for, following symlinks even when the end is missing.
 * When the disk refuses to tell (a loop, no permission), the lexical path stands in; the
 * operation that follows reports the real problem.
 */
export function physicalPath(absolute: string): Promise<string> {
  return walk(absolute, 0, () => absolute)
}

async function walk(
  absolute: string,
  hops: number,
  unknown: (error: unknown) => string,
): Promise<string> {
  if (hops > MAX_LINKS)
    return unknown(Object.assign(new Error('too many links'), { code: 'ELOOP' }))
  try {
    return await realpath(absolute)
  } catch (error) {
    if (!hasNodeCode(error, 'ENOENT', 'ENOTDIR')) return unknown(error)
  }
  // Missing: either a dangling symlink (follow it) or truly absent (readlink fails; go up).
  const link = await readlink(absolute).catch(() => undefined)
  if (link !== undefined) return walk(resolve(dirname(absolute), link), hops + 1, unknown)
  const parent = dirname(absolute)
  if (parent === absolute) return absolute
  return join(await walk(parent, hops, unknown), basename(absolute))
}

function checkPathText(path: string): void {
  if (typeof path !== 'string' || path.includes('\0')) {
    throw new FsError(
      'FS_NOT_FOUND',
      'The path contains a NUL character, so no file can have it. Give a plain file path.',
    )
  }
}
