// Temporary directories for one test file: each made under `base` (the OS temp dir by
// default) as a real path (symlinks resolved, as the bin reports paths), all removed after the
// file's tests.
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'

/** A maker of directories named `<prefix>-<label>-…`; call it at the top of a test file. */
export function tempDirs(prefix: string): (label: string, base?: string) => Promise<string> {
  const dirs: string[] = []
  afterAll(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
  })
  return async (label, base = tmpdir()) => {
    await mkdir(base, { recursive: true })
    const dir = await realpath(await mkdtemp(join(base, `${prefix}-${label}-`)))
    dirs.push(dir)
    return dir
  }
}
