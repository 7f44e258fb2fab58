// A file on disk as the undo store sees it: git's mode (`100644`, `100755`, `120000` for a
// link, whose bytes are its target) and its bytes; and the writes that put one back: in place
// (the file keeps its permissions, the executable bit set as the state says), atomically.
// Cordis-free; only node:fs.
import { randomBytes } from 'node:crypto'
import {
  chmod,
  lstat,
  mkdir,
  readFile,
  readlink,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

export interface DiskFile {
  mode: string
  bytes: Buffer
}

export const LINK_MODE = '120000'

/** The file at `path`; undefined when nothing is there; `other` for a directory, a device…. */
export async function readDiskFile(path: string): Promise<DiskFile | 'other' | undefined> {
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined
    throw error
  })
  if (info === undefined) return undefined
  if (info.isSymbolicLink()) return { mode: LINK_MODE, bytes: Buffer.from(await readlink(path)) }
  if (!info.isFile()) return 'other'
  return { mode: modeOf(info.mode), bytes: await readFile(path) }
}

/** Git's mode for a regular file's permission bits: executable when its owner may run it. */
export function modeOf(permissions: number): string {
  return (permissions & 0o100) !== 0 ? '100755' : '100644'
}

/** Puts `file` at `path`, in place of whatever is there (parents made as needed). */
export async function writeDiskFile(path: string, file: DiskFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.dsh-undo`)
  try {
    if (file.mode === LINK_MODE) await symlink(file.bytes.toString(), temp)
    else {
      const current = await lstat(path).catch(() => undefined)
      const base = current?.isFile() === true ? current.mode & 0o777 : 0o666 & ~process.umask()
      const executable = file.mode === '100755'
      const mode = executable ? base | ((base & 0o444) >> 2) | 0o100 : base & ~0o111
      await writeFile(temp, file.bytes, { mode })
      await chmod(temp, mode)
    }
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

/** Removes the file (or link) at `path`; nothing there is fine. */
export async function removeDiskFile(path: string): Promise<void> {
  await rm(path, { force: true })
}
