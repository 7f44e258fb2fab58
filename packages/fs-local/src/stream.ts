// Streaming reads with bounded memory: one reusable buffer per stream, read from an open
// handle in fixed chunks. streamBytes yields copies (a caller may keep them); streamText
// decodes each chunk at once with the shared text rule (a NUL byte or invalid UTF-8 fails
// wherever it sits, a character split across chunks is joined, the BOM is dropped).
import type { FileHandle } from 'node:fs/promises'
import {
  staleVersionError,
  TextChunkDecoder,
  throwIfAborted,
  type FsStreamBytesOptions,
} from '@deepseek-ai/dsh-fs'
import { toFsError } from './errors'
import { openRegular } from './file-info'

const CHUNK_BYTES = 256 * 1024

/** Views of one reusable buffer: each is valid until the next one is requested. */
async function* readChunks(
  handle: FileHandle,
  start: number,
  display: string,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  const buffer = new Uint8Array(CHUNK_BYTES)
  for (let position = start; ;) {
    throwIfAborted(signal, display)
    let bytesRead: number
    try {
      ;({ bytesRead } = await handle.read(buffer, 0, buffer.length, position))
    } catch (error) {
      throw toFsError(error, display)
    }
    if (bytesRead === 0) return
    position += bytesRead
    yield buffer.subarray(0, bytesRead)
  }
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
    for await (const chunk of readChunks(file.handle, options?.start ?? 0, display, signal)) {
      yield chunk.slice()
    }
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
    for await (const chunk of readChunks(file.handle, 0, display, signal)) {
      const text = decoder.push(chunk)
      if (text) yield text
    }
    const rest = decoder.end()
    if (rest) yield rest
  } finally {
    await file.handle.close()
  }
}
