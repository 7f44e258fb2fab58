// Streaming reads with bounded memory, from an open handle in chunks that grow from 64 KiB to
// 4 MiB. Two reusable buffers alternate (the caller's, when it gives them: `into`): while the
// caller works on one chunk, the next is read into the other, so scanning and reading overlap
// and nothing is allocated per chunk.
// streamBytes yields views of those buffers, valid until the next chunk is requested (the
// seam's contract: a caller copies what it keeps). streamText decodes each chunk at once with
// the shared text rule (a NUL byte or invalid UTF-8 fails wherever it sits, a character split
// across chunks is joined, the BOM is dropped).
import { Buffer } from 'node:buffer'
import type { FileHandle } from 'node:fs/promises'
import type { FsStreamBytesOptions } from '@deepseek-ai/dsh-fs'
import { staleVersionError, TextChunkDecoder, throwIfAborted } from '@deepseek-ai/dsh-fs/provider'
import { toFsError } from './errors'
import { openRegular } from './file-info'

/** The largest chunk: fewer, larger reads keep a long scan from waiting on each one. */
export const CHUNK_BYTES = 4 * 1024 * 1024
/**
 * The first chunk; each next one doubles up to CHUNK_BYTES. A caller that needs only a little
 * (a window near a known line) reads little; a long scan soon reads in large chunks.
 */
const FIRST_CHUNK_BYTES = 64 * 1024

/** Buffers for a file with `remaining` bytes: no larger than a small file needs. */
function bufferSizeFor(remaining: number): number {
  return Math.min(CHUNK_BYTES, Math.max(FIRST_CHUNK_BYTES, remaining))
}

/**
 * Views of two alternating buffers, each valid until the next one is requested. The read of
 * chunk n + 1 is under way while the caller holds chunk n; an early stop waits for that read
 * before the caller closes the handle.
 */
async function* readChunks(
  handle: FileHandle,
  start: number,
  buffers: readonly [Uint8Array, Uint8Array],
  display: string,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  let [filling, spare] = buffers
  const bufferBytes = Math.min(filling.length, spare.length)
  let size = Math.min(FIRST_CHUNK_BYTES, bufferBytes)
  // Settles with the failure instead of rejecting: a read in flight may fail while nobody
  // awaits it yet, and a rejection without a handler would take the process down.
  const readInto = (buffer: Uint8Array, position: number): Promise<number | Error> => {
    const length = size
    size = Math.min(size * 2, bufferBytes)
    return handle.read(buffer, 0, length, position).then(
      ({ bytesRead }) => bytesRead,
      (error: unknown) => toFsError(error, display),
    )
  }
  let position = start
  throwIfAborted(signal, display)
  let next: Promise<number | Error> | undefined = readInto(filling, position)
  try {
    for (;;) {
      const bytesRead = await next
      next = undefined
      if (bytesRead instanceof Error) throw bytesRead
      if (bytesRead === 0) return
      const current = filling
      filling = spare
      spare = current
      position += bytesRead
      throwIfAborted(signal, display)
      // A short read need not be the end (the file may grow); a read of 0 bytes is.
      next = readInto(filling, position)
      yield current.subarray(0, bytesRead)
    }
  } finally {
    // The caller stopped early or failed: the read in flight finishes before the handle closes.
    await next
  }
}

/**
 * A plain Uint8Array (so `slice()` copies, unlike a Buffer's) of its own memory, not
 * zero-filled: only bytes a read filled are ever shown.
 */
function uninitialised(bytes: number): Uint8Array {
  const buffer = Buffer.allocUnsafeSlow(bytes)
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
}

/** The two buffers readChunks alternates between, of `bytes` each. */
function ownBuffers(bytes: number): [Uint8Array, Uint8Array] {
  return [uninitialised(bytes), uninitialised(bytes)]
}

export async function* streamFileBytes(
  path: string,
  display: string,
  options?: FsStreamBytesOptions,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  throwIfAborted(signal, display)
  const file = await openRegular(path, display)
  try {
    if (options?.version !== undefined && options.version !== file.version) {
      throw staleVersionError(display)
    }
    const start = options?.start ?? 0
    // The caller's buffers when it gives two that hold something; else our own.
    const into = options?.into
    const buffers =
      into !== undefined && into[0].length > 0 && into[1].length > 0
        ? into
        : ownBuffers(bufferSizeFor(Number(file.stats.size) - start))
    yield* readChunks(file.handle, start, buffers, display, signal)
  } finally {
    await file.handle.close()
  }
}

export async function* streamFileText(
  path: string,
  display: string,
  signal?: AbortSignal,
): AsyncGenerator<string> {
  throwIfAborted(signal, display)
  const file = await openRegular(path, display)
  try {
    const decoder = new TextChunkDecoder(display)
    const buffers = ownBuffers(bufferSizeFor(Number(file.stats.size)))
    for await (const chunk of readChunks(file.handle, 0, buffers, display, signal)) {
      const text = decoder.push(chunk)
      if (text) yield text
    }
    const rest = decoder.end()
    if (rest) yield rest
  } finally {
    await file.handle.close()
  }
}
