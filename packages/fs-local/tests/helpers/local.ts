// Shared test support: a LocalFileSystem on a fresh mkdtemp directory, loaded through Cordis.
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import LocalFileSystem from '../../src/index'

export interface LocalSetup {
  fs: LocalFileSystem
  root: string
  cleanup(): Promise<void>
}

export async function setupLocal(config: { maxEditBytes?: number } = {}): Promise<LocalSetup> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'dsh-fs-local-')))
  const ctx = new Context()
  await ctx.plugin(LocalFileSystem, { cwd: root, ...config })
  return {
    fs: ctx.fs as LocalFileSystem,
    root,
    cleanup: () => rm(root, { recursive: true, force: true }),
  }
}

export async function failureOf(
  work: Promise<unknown>,
): Promise<{ code: string; message: string }> {
  try {
    await work
  } catch (error) {
    if (error instanceof Error && error.name === 'FsError' && 'code' in error) {
      return { code: String(error.code), message: error.message }
    }
    throw error
  }
  throw new Error('Expected an FsError, but the operation succeeded.')
}
