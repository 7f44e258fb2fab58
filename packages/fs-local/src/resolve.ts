// Path resolution for the local disk. `displayPath` is lexical: the path made absolute against
// the caller's cwd (or the provider's), so the model sees the path it asked for. `targetKey`
// is physical: the real path of the file with every symlink followed, so a link and its
// target share one key. For a path that does not exist yet, the key is the real path of its
// nearest existing ancestor plus the rest, so it is the same key once the file is created; a
// dangling symlink is followed to where it points, so writing it creates that file.
// A path resolved for a change (FsResolveOptions.change, within a call) also keeps the judged
// place: the real path and the device and inode of the directory it lies in (or of its nearest
// existing ancestor), so the change can land there or nowhere (see directory.ts).
// `cwd` is a base, not a sandbox: `..` and absolute paths leave it freely.
import { lstat, readlink, realpath } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { FsError, type FsResolveOptions, type FsTarget } from '@deepseek-ai/dsh-fs'
import { hasNodeCode, toFsError } from './errors'

/** A directory as it was judged: its real path, device and inode. */
export interface DirectoryAnchor {
  path: string
  dev: bigint
  ino: bigint
}

/**
 * Where a call judged its change to land: the real path, and the directory it lies under (none
 * when the disk would not tell; the change is then held to the real path alone).
 */
export interface JudgedPlace {
  path: string
  anchor?: DirectoryAnchor
}

/** One strict walk of a call, and the anchor taken for a change of the path. */
interface CallWalk {
  real: Promise<string>
  anchor?: Promise<DirectoryAnchor | undefined>
}

const MAX_LINKS = 40

/**
 * Resolves paths for one disk. Within one tool call (FsResolveOptions.call) each absolute path
 * is walked once: the permission layer's realPath and the tool's resolve share the walk, so
 * one call sees one answer for where a path is (and pays for one realpath, not two).
 */
export class PathResolver {
  /** The strict walks of each call, by absolute path; a call's map goes with the call. */
  private readonly calls = new WeakMap<object, Map<string, CallWalk>>()
  /** The judged place of each target resolved for a change within a call. */
  private readonly judged = new WeakMap<FsTarget, JudgedPlace>()

  constructor(private readonly base: string) {}

  async resolve(path: string, options?: FsResolveOptions): Promise<FsTarget> {
    const displayPath = this.absolute(path, options)
    const target = {
      inputPath: path,
      displayPath,
      targetKey: await this.physical(displayPath, options),
    }
    const call = options?.change === true ? options.call : undefined
    if (call !== undefined) {
      const walk = this.walkOf(displayPath, call)
      const anchor = await (walk.anchor ??= anchorOf(walk.real))
      // A path the disk would not explain was judged outside; its change is not held anywhere.
      const real = await walk.real.catch(() => undefined)
      if (real !== undefined) this.judged.set(target, { path: real, anchor })
    }
    return target
  }

  /** The place a change of `target` was judged to land in; none without a call and `change`. */
  judgedPlace(target: FsTarget): JudgedPlace | undefined {
    return this.judged.get(target)
  }

  /**
   * The real path of `path` for scope decisions: like the target key, but a path the disk
   * will not explain (a loop of links, a directory this process may not search) is an FsError
   * rather than its lexical spelling, so a caller never takes an unknown place for a known one.
   */
  async realPath(path: string, options?: FsResolveOptions): Promise<string> {
    const absolute = this.absolute(path, options)
    if (options?.call === undefined) return strictRealPath(absolute)
    const walk = this.walkOf(absolute, options.call)
    // Judged for a change: the directory is taken now, before anyone is asked about it.
    if (options.change === true) await (walk.anchor ??= anchorOf(walk.real))
    return walk.real
  }

  private absolute(path: string, options: FsResolveOptions | undefined): string {
    checkPathText(path)
    return resolve(this.base, options?.cwd ?? '', path)
  }

  /** The target key: the strict real path when the disk tells it, else physicalPath's answer. */
  private physical(absolute: string, options: FsResolveOptions | undefined): Promise<string> {
    if (options?.call === undefined) return physicalPath(absolute)
    return this.walkOf(absolute, options.call).real.catch(() => physicalPath(absolute))
  }

  private walkOf(absolute: string, call: object): CallWalk {
    let walks = this.calls.get(call)
    if (walks === undefined) {
      walks = new Map()
      this.calls.set(call, walks)
    }
    let walk = walks.get(absolute)
    if (walk === undefined) {
      walk = { real: strictRealPath(absolute) }
      walks.set(absolute, walk)
    }
    return walk
  }
}

/**
 * The directory a real path lies in (or its nearest existing ancestor) as it is now; `undefined`
 * when the walk failed or the disk will not tell. One lstat for a file whose directory exists.
 */
async function anchorOf(real: Promise<string>): Promise<DirectoryAnchor | undefined> {
  let path: string
  try {
    path = dirname(await real)
  } catch {
    // The walk failed: the caller saw that error already; the change is judged as without a call.
    return undefined
  }
  for (;;) {
    try {
      const stats = await lstat(path, { bigint: true })
      return { path, dev: stats.dev, ino: stats.ino }
    } catch (error) {
      if (!hasNodeCode(error, 'ENOENT') || dirname(path) === path) return undefined
      path = dirname(path)
    }
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
