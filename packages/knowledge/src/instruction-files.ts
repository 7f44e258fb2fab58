// The instruction files themselves: which names a folder may hold, in their order, and reading
// one — its text (at most READ_LIMIT_BYTES of it: the per-file cap is far smaller), its length,
// a hash of its content (two files with the same content count once) and a signature from
// `stat`, so a file is read again only when it may have changed. Cordis-free.
import { createHash } from 'node:crypto'
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'

/** The files looked for in each folder, in the order they are sent. */
export const INSTRUCTION_FILE_NAMES = [
  'AGENTS.md',
  'CLAUDE.md',
  'AGENTS.local.md',
  'CLAUDE.local.md',
] as const

/** The most of one file that is read. */
export const READ_LIMIT_BYTES = 1024 * 1024

export interface InstructionText {
  /** The text read (all of it, or its first READ_LIMIT_BYTES). */
  text: string
  /** The file's length in characters when read whole; else its size in bytes. */
  length: number
  /** Names the content: equal for two files with the same bytes. */
  hash: string
  /** Changes whenever the file may have changed (inode, size, modification time). */
  signature: string
}

/** The candidate paths of `folder`, in order. */
export function instructionPathsIn(folder: string): string[] {
  return INSTRUCTION_FILE_NAMES.map((name) => join(folder, name))
}

/** The signature `stat` gives now; `undefined` when the path is no regular file. */
export function signatureOf(stats: {
  ino: number
  size: number
  mtimeMs: number
  isFile(): boolean
}): string | undefined {
  return stats.isFile() ? `${stats.ino}:${stats.size}:${stats.mtimeMs}` : undefined
}

/** The file at `path`; `undefined` when it is missing, not a regular file, or unreadable. */
export async function readInstruction(path: string): Promise<InstructionText | undefined> {
  let handle
  try {
    handle = await open(path, 'r')
  } catch {
    return undefined // missing or unreadable: the folder has no such file for us
  }
  try {
    const stats = await handle.stat()
    const signature = signatureOf(stats)
    if (signature === undefined) return undefined
    const buffer = Buffer.alloc(Math.min(stats.size, READ_LIMIT_BYTES))
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return textOf(buffer.subarray(0, bytesRead), stats.size, signature)
  } catch {
    return undefined // read failed midway (removed, a device): treated as absent
  } finally {
    await handle.close()
  }
}

/** The same, synchronously (a summary's opening is assembled without waiting). */
export function readInstructionSync(path: string): InstructionText | undefined {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return undefined // missing or unreadable
  }
  try {
    const stats = fstatSync(fd)
    const signature = signatureOf(stats)
    if (signature === undefined) return undefined
    const buffer = Buffer.alloc(Math.min(stats.size, READ_LIMIT_BYTES))
    const bytesRead = readSync(fd, buffer, 0, buffer.length, 0)
    return textOf(buffer.subarray(0, bytesRead), stats.size, signature)
  } catch {
    return undefined // read failed midway: treated as absent
  } finally {
    closeSync(fd)
  }
}

function textOf(bytes: Buffer, size: number, signature: string): InstructionText {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '')
  const whole = bytes.length === size
  const hash = createHash('sha256').update(bytes).update(String(size)).digest('hex').slice(0, 32)
  return { text, length: whole ? text.length : size, hash, signature }
}
