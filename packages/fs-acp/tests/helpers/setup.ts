// Shared test support: an AcpFileSystem on a fresh mkdtemp directory, loaded through Cordis,
// with raw disk helpers that act behind its back, and a matcher for its errors.
import { mkdir, mkdtemp, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Context } from 'cordis'
import type { FsErrorCode } from '@deepseek-ai/dsh-fs'
import { afterEach, expect } from 'vitest'
import AcpFileSystem, { type AcpFileSystemConfig } from '../../src/index'

export interface AcpSetup {
  ctx: Context
  fs: AcpFileSystem
  root: string
  path(relative: string): string
  /** Saves a file on disk behind the provider's back, as editors save (a new file renamed in). */
  put(relative: string, content: string | Uint8Array): Promise<void>
  /** The disk's bytes at `relative`, or `undefined` when no file is there. */
  bytes(relative: string): Promise<Uint8Array | undefined>
  /** The disk's bytes at `relative` as UTF-8 (a BOM kept), or `undefined`. */
  disk(relative: string): Promise<string | undefined>
  cleanup(): Promise<void>
}

export async function setupAcp(config: AcpFileSystemConfig = {}): Promise<AcpSetup> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'dsh-fs-acp-')))
  const ctx = new Context()
  await ctx.plugin(AcpFileSystem, { ...config, local: { ...config.local, cwd: root } })
  const path = (relative: string) => join(root, relative)
  let saves = 0
  const bytes = async (relative: string) => {
    try {
      return new Uint8Array(await readFile(path(relative)))
    } catch {
      // No file there: the caller asserts on `undefined`.
      return undefined
    }
  }
  return {
    ctx,
    fs: ctx.fs as AcpFileSystem,
    root,
    path,
    put: async (relative, content) => {
      await mkdir(dirname(path(relative)), { recursive: true })
      const temp = path(`.save-${saves++}`)
      await writeFile(temp, content)
      await rename(temp, path(relative))
    },
    bytes,
    disk: async (relative) => {
      const found = await bytes(relative)
      return found && new TextDecoder('utf-8', { ignoreBOM: true }).decode(found)
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  }
}

/** A setup function for a test file's cases; each case's directory is removed after it. */
export function useSetup(): (config?: AcpFileSystemConfig) => Promise<AcpSetup> {
  let current: AcpSetup | undefined
  afterEach(async () => {
    await current?.cleanup()
    current = undefined
  })
  return async (config) => {
    current = await setupAcp(config)
    return current
  }
}

/** Matches an FsError with `code` (and a message containing `phrase`, when given). */
export function fsError(code: FsErrorCode, phrase?: string) {
  const message = phrase === undefined ? {} : { message: expect.stringContaining(phrase) }
  return expect.objectContaining({ name: 'FsError', code, ...message })
}

/** Every chunk of an async iterable. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const chunks: T[] = []
  for await (const chunk of iterable) chunks.push(chunk)
  return chunks
}
