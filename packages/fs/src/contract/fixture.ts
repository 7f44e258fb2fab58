// What a provider hands the contract suite, and small helpers the suite's cases share.
// Test support only: imports vitest, never used by product code.
import { afterEach, beforeEach } from 'vitest'
import type { FileSystem } from '../index'
import type { FsErrorCode } from '../errors'

/** One fresh, empty provider per case, with raw access to what it stores. */
export interface FileSystemContractFixture {
  /** The provider under test; its base for relative paths is `root`. */
  fs: FileSystem
  /** The provider's base directory, absolute, spelled as `displayPath` spells it. */
  root: string
  /** `relative` joined to `root` and normalised, spelled as `displayPath` spells it. */
  path(relative: string): string
  /**
   * Stores raw bytes at `relative`, creating parents, behind the provider's back (as another
   * process or an editor would). The file must end up at a new version.
   */
  writeBytes(relative: string, bytes: Uint8Array): Promise<void>
  /** The raw bytes at `relative`, or `undefined` when no file is there. */
  readBytes(relative: string): Promise<Uint8Array | undefined>
  /** Creates a directory (and its parents) at `relative`. */
  makeDirectory(relative: string): Promise<void>
  /** Releases everything the fixture made. */
  cleanup(): Promise<void>
}

export type FileSystemContractFactory = () => Promise<FileSystemContractFixture>

/** Registers hooks that give each case a fresh fixture; returns its getter. */
export function useFixture(make: FileSystemContractFactory): () => FileSystemContractFixture {
  let current: FileSystemContractFixture | undefined
  beforeEach(async () => {
    current = await make()
  })
  afterEach(async () => {
    await current?.cleanup()
    current = undefined
  })
  return () => {
    if (!current) throw new Error('The contract fixture is not ready.')
    return current
  }
}

export const encode = (text: string): Uint8Array => new TextEncoder().encode(text)

export const decode = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)

/** The code of the FsError that `work` rejects with; fails when it resolves or throws another. */
export async function failureCode(work: Promise<unknown>): Promise<FsErrorCode> {
  return (await failure(work)).code
}

/** The FsError that `work` rejects with. */
export async function failure(
  work: Promise<unknown>,
): Promise<{ code: FsErrorCode; message: string }> {
  try {
    await work
  } catch (error) {
    if (error instanceof Error && error.name === 'FsError' && 'code' in error) {
      return { code: error.code as FsErrorCode, message: error.message }
    }
    throw error
  }
  throw new Error('Expected an FsError, but the operation succeeded.')
}

/** Every chunk of an async iterable. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const chunks: T[] = []
  for await (const chunk of iterable) chunks.push(chunk)
  return chunks
}

/**
 * Every chunk of a byte stream, each copied when it arrives: a chunk is only valid until the
 * next one is requested (the provider may reuse its memory).
 */
export async function collectBytes(stream: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = []
  for await (const chunk of stream) chunks.push(chunk.slice())
  return chunks
}

/** Concatenated bytes. */
export function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0))
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.length
  }
  return out
}

/** An AbortSignal that has already fired. */
export function abortedSignal(): AbortSignal {
  const controller = new AbortController()
  controller.abort()
  return controller.signal
}
