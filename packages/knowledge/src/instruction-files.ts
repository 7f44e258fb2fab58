// The instruction files themselves: which names a folder may hold, in their order, and reading
// one — its text (at most READ_LIMIT_BYTES of it: the per-file cap is far smaller), its length,
// a hash of its content (two files with the same content count once) and a signature from
// `stat`, so a file is read again only when it may have changed. Read as ./regular-file reads:
// regular files only, and a link out of the session's roots is not read. Cordis-free.
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { readRegularFile, readRegularFileSync } from './regular-file'
import type { RegularFile } from './regular-file'

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

/**
 * The file at `path`: its text, `outside` when it is a link out of `within` (not read), or
 * `undefined` when it is missing, not a regular file (a FIFO is never opened), or unreadable.
 */
export async function readInstruction(
  path: string,
  within?: readonly string[],
): Promise<InstructionText | InstructionOutside | undefined> {
  return fromRegular(await readRegularFile(path, { limit: READ_LIMIT_BYTES, within }))
}

/** The same, synchronously (a summary's opening is assembled without waiting). */
export function readInstructionSync(
  path: string,
  within?: readonly string[],
): InstructionText | InstructionOutside | undefined {
  return fromRegular(readRegularFileSync(path, { limit: READ_LIMIT_BYTES, within }))
}

/** An instruction file that is a link out of the session's roots: where it points. */
export interface InstructionOutside {
  outside: string
}

function fromRegular(file: RegularFile): InstructionText | InstructionOutside | undefined {
  if (!file.ok) return file.reason === 'outside' ? { outside: file.real } : undefined
  const signature = signatureOf(file.stats)
  return signature === undefined ? undefined : textOf(file.bytes, file.stats.size, signature)
}

function textOf(bytes: Buffer, size: number, signature: string): InstructionText {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '')
  const whole = bytes.length === size
  const hash = createHash('sha256').update(bytes).update(String(size)).digest('hex').slice(0, 32)
  return { text, length: whole ? text.length : size, hash, signature }
}
