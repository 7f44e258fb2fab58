// Shared by the undo tests: temporary folders (real paths, removed after each test), a turn
// recorded around a change, and the simplest turn of all (a.txt: `one` → `two`) on git.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { GitUndoStore } from '../../src/git-store'
import type { UndoStore, UndoTurn } from '../../src/types'

const made: string[] = []
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

export async function tempDir(label: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), `dsh-undo-${label}-`)))
  made.push(dir)
  return dir
}

/** The turn `change` makes, recorded by `store` (a file tool's `file` named, if any). */
export async function turnOf(
  store: UndoStore,
  root: string,
  change: () => Promise<void>,
  file?: string,
): Promise<UndoTurn> {
  const recorder = store.begin('s1', [root])
  await recorder.beforeCall(file)
  await change()
  await recorder.afterCall(file)
  const done = await recorder.finish()
  return { turnId: 't1', title: 'change', at: '', store: store.kind, undone: false, ...done }
}

/** a.txt from `one` to `two` in a fresh root, recorded by a fresh git store. */
export async function editTurn(): Promise<{ root: string; store: GitUndoStore; turn: UndoTurn }> {
  const root = await tempDir('root')
  const store = new GitUndoStore({
    program: 'git',
    dir: await tempDir('state'),
    maxFileBytes: 1 << 20,
  })
  await writeFile(join(root, 'a.txt'), 'one\n')
  const turn = await turnOf(store, root, () => writeFile(join(root, 'a.txt'), 'two\n'))
  return { root, store, turn }
}

export const restoreOptions = (store: UndoStore, root: string, overwrite = false) => ({
  store,
  sessionId: 's1',
  roots: [root],
  overwrite: async () => overwrite,
})
