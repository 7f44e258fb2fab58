// MemoryFileSystem: an in-memory ctx.fs provider for tests of code above the seam. POSIX-style
// absolute paths, no symlinks; the same text and edit rules as every provider (text.ts,
// edit.ts) and the same errors (failures.ts). It passes runFileSystemContract. It is not a
// sandbox and not a cache of a real disk. Tests seed and inspect raw bytes with putBytes /
// getBytes, which also play "another process changed the file behind the provider's back".
// streamBytes yields views of one reused buffer, as a disk provider may, so a caller that
// keeps a chunk without copying it fails its tests here too.
import { posix } from 'node:path'
import type { Context } from 'cordis'
import { FileSystem } from './index'
import { checkEditRequest, planTextEdit } from './edit'
import { editedBytePieces } from './edit-bytes'
import {
  notFoundError,
  notObservedError,
  notRegularFileError,
  parentNotDirectoryError,
  staleVersionError,
  throwIfAborted,
} from './failures'
import { decodeText, encodeText, hasUtf8Bom, TextChunkDecoder } from './text'
import type {
  FsEditExpectation,
  FsEditOutcome,
  FsEditRequest,
  FsInfo,
  FsResolveOptions,
  FsStreamBytesOptions,
  FsTarget,
  FsWriteIntent,
  FsWriteOutcome,
} from './types'

export interface MemoryFileSystemConfig {
  /** Base for relative paths (absolute, POSIX). Default `/workspace`. */
  cwd?: string
}

type MemoryEntry =
  | { type: 'file'; bytes: Uint8Array; version: string }
  | { type: 'directory' | 'other'; version: string }

const CHUNK_BYTES = 64 * 1024
const PREVIOUS_TEXT_MAX = 1024 * 1024

export class MemoryFileSystem extends FileSystem {
  readonly cwd: string
  private readonly entries = new Map<string, MemoryEntry>()
  private clock = 0

  constructor(ctx: Context, config: MemoryFileSystemConfig = {}) {
    super(ctx)
    this.cwd = posix.resolve('/', config?.cwd ?? '/workspace')
    this.makeDirectory(this.cwd)
  }

  // Raw helpers for tests: no intents, no rules, paths relative to cwd or absolute.

  /** Stores raw bytes at `path` (parents created); the file gets a new version. */
  putBytes(path: string, bytes: Uint8Array): void {
    const absolute = this.absolute(path)
    this.makeDirectory(posix.dirname(absolute))
    this.entries.set(absolute, { type: 'file', bytes: bytes.slice(), version: this.tick() })
  }

  /** Stores UTF-8 text at `path`. */
  putText(path: string, text: string): void {
    this.putBytes(path, encodeText(text))
  }

  /** The raw bytes at `path`, or `undefined` when it is not a file. */
  getBytes(path: string): Uint8Array | undefined {
    const entry = this.entries.get(this.absolute(path))
    return entry?.type === 'file' ? entry.bytes.slice() : undefined
  }

  /** Creates a directory and its parents. */
  makeDirectory(path: string): void {
    const absolute = this.absolute(path)
    for (let at = absolute; !this.entries.has(at); at = posix.dirname(at)) {
      this.entries.set(at, { type: 'directory', version: this.tick() })
      if (at === '/') break
    }
  }

  /** Places a non-regular entry (like a FIFO or socket) at `path`. */
  putOther(path: string): void {
    const absolute = this.absolute(path)
    this.makeDirectory(posix.dirname(absolute))
    this.entries.set(absolute, { type: 'other', version: this.tick() })
  }

  /** Removes the entry at `path` (and, for a directory, everything under it). */
  remove(path: string): void {
    const absolute = this.absolute(path)
    for (const key of [...this.entries.keys()]) {
      if (key === absolute || key.startsWith(`${absolute}/`)) this.entries.delete(key)
    }
  }

  // The FileSystem contract.

  async resolve(path: string, options?: FsResolveOptions): Promise<FsTarget> {
    const base = options?.cwd ? posix.resolve(this.cwd, options.cwd) : this.cwd
    const absolute = posix.resolve(base, path)
    return { inputPath: path, targetKey: absolute, displayPath: absolute }
  }

  /** No symlinks here: the real path is the absolute, normalised path. */
  async realPath(path: string, options?: FsResolveOptions): Promise<string> {
    return (await this.resolve(path, options)).targetKey
  }

  async stat(target: FsTarget, signal?: AbortSignal): Promise<FsInfo | undefined> {
    throwIfAborted(signal, target.displayPath)
    const entry = this.entries.get(target.targetKey)
    if (!entry) return undefined
    const size = entry.type === 'file' ? entry.bytes.length : undefined
    return { version: entry.version, type: entry.type, ...(size === undefined ? {} : { size }) }
  }

  async readText(target: FsTarget, signal?: AbortSignal): Promise<string> {
    throwIfAborted(signal, target.displayPath)
    return decodeText(this.file(target).bytes, target.displayPath).text
  }

  async *streamText(target: FsTarget, signal?: AbortSignal): AsyncIterable<string> {
    throwIfAborted(signal, target.displayPath)
    const { bytes } = this.file(target)
    const decoder = new TextChunkDecoder(target.displayPath)
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
      throwIfAborted(signal, target.displayPath)
      const text = decoder.push(bytes.subarray(at, at + CHUNK_BYTES))
      if (text) yield text
    }
    const rest = decoder.end()
    if (rest) yield rest
  }

  async *streamBytes(
    target: FsTarget,
    options?: FsStreamBytesOptions,
    signal?: AbortSignal,
  ): AsyncIterable<Uint8Array> {
    throwIfAborted(signal, target.displayPath)
    const file = this.file(target)
    if (options?.version !== undefined && options.version !== file.version) {
      throw staleVersionError(target.displayPath)
    }
    const buffer = new Uint8Array(CHUNK_BYTES)
    for (let at = options?.start ?? 0; at < file.bytes.length; at += CHUNK_BYTES) {
      throwIfAborted(signal, target.displayPath)
      const chunk = file.bytes.subarray(at, at + CHUNK_BYTES)
      buffer.set(chunk)
      yield buffer.subarray(0, chunk.length)
    }
  }

  async writeText(
    target: FsTarget,
    content: string,
    intent?: FsWriteIntent,
    signal?: AbortSignal,
  ): Promise<FsWriteOutcome> {
    const path = target.displayPath
    throwIfAborted(signal, path)
    const entry = this.entries.get(target.targetKey)
    if (entry && entry.type !== 'file') throw this.notRegular(path, entry.type)
    if (intent?.kind === 'createIfAbsent' && entry) throw notObservedError(path)
    if (intent?.kind === 'replaceIfVersion' && entry?.version !== intent.version) {
      throw staleVersionError(path)
    }
    this.checkParents(target.targetKey, path)
    const bom = entry ? hasUtf8Bom(entry.bytes) : false
    this.putBytes(target.targetKey, encodeText(content, bom))
    const version = this.file(target).version
    if (!entry) return { operation: 'create', version, previousText: null }
    return { operation: 'update', version, previousText: previousText(entry.bytes) }
  }

  async editText(
    target: FsTarget,
    request: FsEditRequest,
    expected?: FsEditExpectation,
    signal?: AbortSignal,
  ): Promise<FsEditOutcome> {
    const path = target.displayPath
    throwIfAborted(signal, path)
    checkEditRequest(request, path)
    const file = this.file(target)
    if (expected && expected.version !== file.version) throw staleVersionError(path)
    const { text, bom } = decodeText(file.bytes, path)
    const edit = planTextEdit(text, request, path)
    this.putBytes(
      target.targetKey,
      joinBytes(editedBytePieces(file.bytes, text, edit.matches, bom)),
    )
    return {
      replacements: edit.replacements,
      replaceAll: request.replaceAll === true,
      version: this.file(target).version,
      line: edit.line,
      excerpt: edit.excerpt,
    }
  }

  private absolute(path: string): string {
    return posix.resolve(this.cwd, path)
  }

  private tick(): string {
    this.clock += 1
    return `m${this.clock}`
  }

  private file(target: FsTarget): { bytes: Uint8Array; version: string } {
    const entry = this.entries.get(target.targetKey)
    if (entry?.type === 'file') return entry
    if (entry) throw this.notRegular(target.displayPath, entry.type)
    this.checkParents(target.targetKey, target.displayPath)
    throw notFoundError(target.displayPath)
  }

  /** Throws when an ancestor of `absolute` is a file or other non-directory. */
  private checkParents(absolute: string, path: string): void {
    for (let at = posix.dirname(absolute); at !== '/'; at = posix.dirname(at)) {
      const entry = this.entries.get(at)
      if (entry && entry.type !== 'directory') throw parentNotDirectoryError(path)
    }
  }

  private notRegular(path: string, type: 'directory' | 'other') {
    return notRegularFileError(path, type === 'directory' ? 'a directory' : 'a special file')
  }
}

function previousText(bytes: Uint8Array): string | undefined {
  if (bytes.length > PREVIOUS_TEXT_MAX) return undefined
  try {
    return decodeText(bytes).text
  } catch {
    // Not text: the outcome simply carries no previous text.
    return undefined
  }
}

function joinBytes(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((size, piece) => size + piece.length, 0))
  let at = 0
  for (const piece of pieces) {
    out.set(piece, at)
    at += piece.length
  }
  return out
}
