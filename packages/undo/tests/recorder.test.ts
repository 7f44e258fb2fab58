// The git store's recorder, call by call, on a real disk with the real git: a file tool's call
// is recorded from its own file without walking the tree; a call without a file walks it, and
// what the person changed between turns is never taken for the turn's change; the git runs a
// turn costs; a git too old to list the index's states in a walk.
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GitUndoStore } from '../src/git-store'
import { restoreTurn } from '../src/restore'
import type { UndoRecorder, UndoStore, UndoTurn } from '../src/types'
import { loggingGit, runs } from './helpers/git-log'
import { restoreOptions, tempDir } from './helpers/turns'

/** A root holding a.txt, and a git store over it (walking, unwatched) whose runs are logged. */
async function loggedStore(version: string) {
  const root = await tempDir('root')
  const log = join(await tempDir('log'), 'runs')
  await writeFile(join(root, 'a.txt'), 'one\n')
  const program = await loggingGit(log)
  const dir = await tempDir('state')
  const store = new GitUndoStore({ program, version, dir, maxFileBytes: 1 << 20, watch: false })
  return { root, log, store }
}

/** A call between the recorder's snapshots: a file tool's (naming `file`) or a command's. */
async function call(recorder: UndoRecorder, change: () => Promise<void>, file?: string) {
  await recorder.beforeCall(file)
  await change()
  await recorder.afterCall(file)
}

async function turnFrom(store: UndoStore, recorder: UndoRecorder): Promise<UndoTurn> {
  const done = await recorder.finish()
  return { turnId: 't', title: '', at: '', store: store.kind, undone: false, ...done }
}

describe('a turn of file tools and commands', () => {
  it('undoes what the calls changed and leaves what the person changed between turns', async () => {
    const root = await tempDir('root')
    const file = (name: string) => join(root, name)
    for (const name of ['a.txt', 'b.txt', 'c.txt']) await writeFile(file(name), `${name} 0\n`)
    const store = new GitUndoStore({
      program: 'git',
      dir: await tempDir('state'),
      maxFileBytes: 1 << 20,
    })
    const first = store.begin('s1', [root])
    await call(first, () => writeFile(file('c.txt'), 'c.txt 1\n'))
    await first.finish()
    // Between turns the person edits b.txt.
    await writeFile(file('b.txt'), 'b.txt by the person\n')
    const recorder = store.begin('s1', [root])
    await call(recorder, () => writeFile(file('a.txt'), 'a.txt by edit\n'), file('a.txt'))
    await call(recorder, () => writeFile(file('c.txt'), 'c.txt by bash\n'))
    await call(recorder, () => writeFile(file('a.txt'), 'a.txt by bash\n'))
    const turn = await turnFrom(store, recorder)
    expect(turn.changes.map((change) => change.path)).toEqual(['a.txt', 'c.txt'])
    const outcomes = await restoreTurn(turn, 'undo', restoreOptions(store, root))
    expect(outcomes.map((outcome) => outcome.what)).toEqual(['edit reverted', 'edit reverted'])
    expect(await readFile(file('a.txt'), 'utf8')).toBe('a.txt 0\n')
    expect(await readFile(file('b.txt'), 'utf8')).toBe('b.txt by the person\n')
    expect(await readFile(file('c.txt'), 'utf8')).toBe('c.txt 1\n')
  })

  it('records a file tool through a linked folder as the file the walks see', async () => {
    const root = await tempDir('root')
    execFileSync('mkdir', [join(root, 'real')])
    execFileSync('ln', ['-s', 'real', join(root, 'link')])
    await writeFile(join(root, 'real', 'x.txt'), 'one\n')
    const store = new GitUndoStore({
      program: 'git',
      dir: await tempDir('state'),
      maxFileBytes: 1 << 20,
    })
    const recorder = store.begin('s1', [root])
    const named = join(root, 'link', 'x.txt')
    await call(recorder, () => writeFile(named, 'two\n'), named)
    await call(recorder, () => writeFile(join(root, 'real', 'x.txt'), 'three\n'))
    const turn = await turnFrom(store, recorder)
    expect(turn.changes.map((change) => change.path)).toEqual(['real/x.txt'])
    await restoreTurn(turn, 'undo', restoreOptions(store, root))
    expect(await readFile(join(root, 'real', 'x.txt'), 'utf8')).toBe('one\n')
  })
})

describe('what a turn costs', () => {
  it('a file tool turn runs no git at all, and a command turn walks twice', async () => {
    const { root, log, store } = await loggedStore('2.39.0')
    const warm = store.begin('s1', [root])
    await call(warm, async () => {})
    await writeFile(log, '')
    const byTool = store.begin('s1', [root])
    await call(byTool, () => writeFile(join(root, 'a.txt'), 'two\n'), join(root, 'a.txt'))
    expect((await turnFrom(store, byTool)).changes).toHaveLength(1)
    expect(await runs(log)).toEqual([])
    const byCommand = store.begin('s1', [root])
    await call(byCommand, () => writeFile(join(root, 'a.txt'), 'three\n'))
    expect((await turnFrom(store, byCommand)).changes).toHaveLength(1)
    const names = (await runs(log)).map((line) => line.split(' ').slice(0, 2).join(' ')).sort()
    expect(names).toEqual([
      'ls-files -z', // before the call: changed files (a.txt, by the file tool's turn)
      'ls-files -z',
      'ls-files -z', // after it: the same two, side by side
      'ls-files -z',
      'update-index --add', // before the call, a.txt as the file tool left it taken in
    ])
  })

  it('records a command turn with a git that cannot list the index in a format', async () => {
    const { root, log, store } = await loggedStore('2.30.1')
    const recorder = store.begin('s1', [root])
    await call(recorder, async () => {
      await writeFile(join(root, 'a.txt'), 'two\n')
      await writeFile(join(root, 'b.txt'), 'new\n')
    })
    const turn = await turnFrom(store, recorder)
    expect(
      turn.changes.map(({ path, before, after }) => [path, before?.mode, after?.mode]),
    ).toEqual([
      ['a.txt', '100644', '100644'],
      ['b.txt', undefined, '100644'],
    ])
    const ran = await runs(log)
    expect(ran.some((line) => line.includes('--format'))).toBe(false)
    expect(ran.filter((line) => line.startsWith('ls-files -s'))).toHaveLength(1)
    await restoreTurn(turn, 'undo', restoreOptions(store, root))
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one\n')
  })
})

describe('a folder a command turned into a link', () => {
  for (const watch of [false, true]) {
    it(`records its files as gone, reads nothing through the link, and takes it in (${watch ? 'watched' : 'walked'})`, async () => {
      const root = await tempDir('root')
      const outside = await tempDir('outside')
      await mkdir(join(root, 'src'))
      await writeFile(join(root, 'src', 'c.txt'), 'c inside\n')
      await writeFile(join(outside, 'c.txt'), 'c outside\n')
      const dir = await tempDir('state')
      const store = new GitUndoStore({
        program: 'git',
        dir,
        maxFileBytes: 1 << 20,
        ...(!watch && { watch: false }),
      })
      const first = store.begin('s1', [root])
      await call(first, () => writeFile(join(root, 'a.txt'), 'a\n'))
      await first.finish()
      const recorder = store.begin('s1', [root])
      await call(recorder, async () => {
        await rename(join(root, 'src'), join(root, 'src.old'))
        await symlink(outside, join(root, 'src'))
      })
      const turn = await turnFrom(store, recorder)
      const byPath = new Map(turn.changes.map((change) => [change.path, change]))
      expect(byPath.get('src/c.txt')?.before).toBeDefined()
      expect(byPath.get('src/c.txt')?.after).toBeUndefined()
      expect(byPath.get('src')?.after?.mode).toBe('120000')
      // Undone: the link goes, the folder's file comes back, nothing is written through the link.
      const outcomes = await restoreTurn(turn, 'undo', restoreOptions(store, root))
      expect(outcomes.map(({ path, what }) => [path.slice(root.length + 1), what])).toEqual([
        ['src', 'removed (the turn created it)'],
        ['src.old/c.txt', 'removed (the turn created it)'],
        ['src/c.txt', 'put back (the turn deleted it)'],
      ])
      expect(await readFile(join(root, 'src', 'c.txt'), 'utf8')).toBe('c inside\n')
      expect(await readFile(join(outside, 'c.txt'), 'utf8')).toBe('c outside\n')
      // The next turn's walk takes the link in, and sees nothing more to record.
      const next = store.begin('s1', [root])
      await call(next, async () => {})
      expect((await turnFrom(store, next)).changes).toEqual([])
      await store.close()
    })
  }
})
