// Path resolution for the local disk. `displayPath` is lexical: the path made absolute against
// the caller's cwd (or the provider's), so the model sees the path it asked for. `targetKey`
// is physical: the real path of the file with every symlink followed, so a link and its
// target share one key. For a path that does not exist yet, the key is the real path of its
// nearest existing ancestor plus the rest, so it is the same key once the file is created; a
// dangling symlink is followed to where it points, so writing it creates that file.
// `cwd` is a base, not a sandbox: `..` and absolute paths leave it freely.
import { readlink, realpath } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { FsError, type FsTarget } from '@deepseek-ai/dsh-fs'
import { hasNodeCode } from './errors'

const MAX_LINKS = 40

export async function resolveTarget(path: string, base: string, cwd?: string): Promise<FsTarget> {
  if (typeof path !== 'string' || path.includes('\0')) {
    throw new FsError(
      'FS_NOT_FOUND',
      'The path contains a NUL character, so no file can have it. Give a plain file path.',
    )
  }
  const displayPath = resolve(base, cwd ?? '', path)
  return { inputPath: path, displayPath, targetKey: await physicalPath(displayPath) }
}

/**
 * The real path `absolute` stands for, following symlinks even when the end is missing.
 * When the disk refuses to tell (a loop, no permission), the lexical path stands in; the
 * operation that follows reports the real problem.
 */
export async function physicalPath(absolute: string, hops = 0): Promise<string> {
  try {
    return await realpath(absolute)
  } catch (error) {
    if (!hasNodeCode(error, 'ENOENT', 'ENOTDIR') || hops > MAX_LINKS) return absolute
  }
  // Missing: either a dangling symlink (follow it) or truly absent (readlink fails; go up).
  const link = await readlink(absolute).catch(() => undefined)
  if (link !== undefined) return physicalPath(resolve(dirname(absolute), link), hops + 1)
  const parent = dirname(absolute)
  if (parent === absolute) return absolute
  return join(await physicalPath(parent, hops), basename(absolute))
}
