// The git store with its roots watched (real fs.watch, real git, a real disk): a command's turn
// is recorded exactly as a store that walks every file records it, from the paths the watch
// marked alone; what a watch cannot vouch for (a new folder, a .gitignore, a flood, a late
// barrier, a watch that cannot be set) makes a walk full; nothing stays open once it closes.
import { watch } from 'node:fs'
import { mkdir, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { GitUndoStore } from '../src/git-store'
import type { GitWatchOptions } from '../src/git-watch'
import type { WatchFolder } from '../src/watch-folders'
import type { UndoChange, UndoStore } from '../src/types'
import { loggingGit, runs } from './helpers/git-log'
import { tempDir } from './helpers/turns'

const opened: GitUndoStore[] = []
afterEach(() => opened.splice(0).forEach((store) => store.close()))

/** A root with a few files, a watching store (its git runs logged) and a walking one. */
async function setUp(options: GitWatchOptions = {}, files: Record<string, string> = {}) {
  const root = await tempDir('root')
  const log = join(await tempDir('log'), 'runs')
  const base = { 'a.txt': 'a\n', 'b.txt': 'b\n', 'src/c.txt': 'c\n', ...files }
  for (const [name, text] of Object.entries(base)) {
    await mkdir(join(root, name, '..'), { recursive: true })
    await writeFile(join(root, name), text)
  }
  const program = await loggingGit(log)
  const maxFileBytes = 1 << 20
  const state = await tempDir('w')
  const watching = new GitUndoStore({
    program,
    dir: state,
    maxFileBytes,
    watch: options,
  })
  const walking = new GitUndoStore({
    program: 'git',
    dir: await tempDir('k'),
    maxFileBytes,
    watch: false,
  })
  opened.push(watching, walking)
  return { root, log, state, watching, walking }
}

/** One command's turn (`change`) recorded by each store: what each says it changed. */
async function commandTurn(
  stores: readonly UndoStore[],
  root: string,
  ...calls: (() => Promise<void>)[]
): Promise<UndoChange[][]> {
  const recorders = stores.map((store) => store.begin('s1', [root]))
  for (const change of calls) {
    for (const recorder of recorders) await recorder.beforeCall()
    await change()
    for (const recorder of recorders) await recorder.afterCall()
  }
  return Promise.all(recorders.map(async (recorder) => (await recorder.finish()).changes))
}

/** Turns until the watching store's walks list marked paths (its first walk after the start is full). */
async function untilWatched(setup: Awaited<ReturnType<typeof setUp>>) {
  const { root, log, watching, walking } = setup
  await commandTurn([watching, walking], root, async () => {})
  await expect.poll(() => watching.watchState(root)).toBe('on')
  await commandTurn([watching, walking], root, async () => {})
  await writeFile(log, '')
}

/** The paths each walk's `ls-files` was limited to (`''` for a run over the whole tree). */
async function listings(log: string): Promise<string[]> {
  const walk = (line: string) => / -[mo]( |$)/.test(line) && !line.includes(' -i ')
  return (await runs(log))
    .filter((line) => line.startsWith('ls-files') && walk(line))
    .map((line) => line.split(' -- ')[1] ?? '')
}

const pathsOf = (changes: UndoChange[]) => changes.map((change) => change.path)

/** A turn that changes `path` again: recorded as walks record it, from that marked path. */
async function changedAgain(setup: Awaited<ReturnType<typeof setUp>>, path: string) {
  const { root, log, watching, walking } = setup
  await writeFile(log, '')
  const [watched, walked] = await commandTurn([watching, walking], root, () =>
    writeFile(join(root, path), 'again\n'),
  )
  expect(pathsOf(watched!)).toEqual([path])
  expect(watched).toEqual(walked)
  expect(await listings(log)).toContain(path)
}

/** fs.watch, counting the watches open. */
function countingWatch(): { folder: WatchFolder; open: () => number } {
  let open = 0
  const folder: WatchFolder = (path, onEvent, onError) => {
    const handle = realWatch(path, onEvent, onError)
    open += 1
    return { close: () => ((open -= 1), handle.close()) }
  }
  return { folder, open: () => open }
}

describe('a watched root', () => {
  it('records a turn that edits, creates and deletes files as walks do, from marked paths', async () => {
    const setup = await setUp()
    const { root, log, watching, walking } = setup
    await untilWatched(setup)
    const [watched, walked] = await commandTurn(
      [watching, walking],
      root,
      () => writeFile(join(root, 'a.txt'), 'a by the command\n'),
      async () => {
        await writeFile(join(root, 'src', 'new.txt'), 'new\n')
        await rm(join(root, 'b.txt'))
      },
    )
    expect(pathsOf(watched!)).toEqual(['a.txt', 'b.txt', 'src/new.txt'])
    expect(watched).toEqual(walked)
    expect(watched!.find((change) => change.path === 'b.txt')?.after).toBeUndefined()
    // The next turn finds a.txt as this one left it.
    const [next, nextByWalk] = await commandTurn([watching, walking], root, () =>
      writeFile(join(root, 'a.txt'), 'a by the next command\n'),
    )
    expect(next![0]?.before).toEqual(watched![0]?.after)
    expect(next).toEqual(nextByWalk)
    expect(await listings(log)).not.toContain('')
  })

  it('keeps the person’s edit between turns out of the turn', async () => {
    const setup = await setUp()
    const { root, watching, walking } = setup
    await untilWatched(setup)
    await writeFile(join(root, 'b.txt'), 'b by the person\n')
    const [watched, walked] = await commandTurn([watching, walking], root, () =>
      writeFile(join(root, 'a.txt'), 'a by the command\n'),
    )
    expect(pathsOf(watched!)).toEqual(['a.txt'])
    expect(watched).toEqual(walked)
  })

  it('takes in a file a walk listed before without listing it again', async () => {
    const setup = await setUp()
    const { root, log, watching, walking } = setup
    await untilWatched(setup)
    await commandTurn([watching, walking], root, () => writeFile(join(root, 'a.txt'), 'a 1\n'))
    await writeFile(join(root, 'a.txt'), 'a by the person\n')
    await writeFile(log, '')
    const [watched, walked] = await commandTurn([watching, walking], root, () =>
      writeFile(join(root, 'b.txt'), 'b by the command\n'),
    )
    expect(pathsOf(watched!)).toEqual(['b.txt'])
    expect(watched).toEqual(walked)
    const ran = (await runs(log)).map((line) => line.split(' ').slice(0, 2).join(' '))
    expect(ran).toEqual(['update-index --add', 'ls-files -z'])
    expect(await listings(log)).toEqual(['b.txt'])
  })

  it('runs no git at all for a walk with no marked path', async () => {
    const setup = await setUp()
    const { root, log, watching } = setup
    await untilWatched(setup)
    const [changes] = await commandTurn([watching], root, async () => {})
    expect(changes).toEqual([])
    expect(await runs(log)).toEqual([])
  })

  it('records a folder the command made with files in it, then watches that folder', async () => {
    const setup = await setUp()
    const { root, log, watching, walking } = setup
    await untilWatched(setup)
    const [made, madeByWalk] = await commandTurn([watching, walking], root, async () => {
      await mkdir(join(root, 'gen', 'deep'), { recursive: true })
      await writeFile(join(root, 'gen', 'deep', 'x.txt'), 'x\n')
    })
    expect(pathsOf(made!)).toEqual(['gen/deep/x.txt'])
    expect(made).toEqual(madeByWalk)
    // Only the new folder was looked through for folders to watch.
    const ignoredAsked = (await runs(log)).filter((line) => line.includes(' -i '))
    expect(ignoredAsked.map((line) => line.split(' -- ')[1])).toEqual(['gen'])
    await changedAgain(setup, 'gen/deep/x.txt')
  })

  it('records a file written into an empty folder that was there before', async () => {
    const setup = await setUp()
    const { root, log, watching, walking } = setup
    await mkdir(join(root, 'empty'))
    await untilWatched(setup)
    const [watched, walked] = await commandTurn([watching, walking], root, () =>
      writeFile(join(root, 'empty', 'f.txt'), 'f\n'),
    )
    expect(pathsOf(watched!)).toEqual(['empty/f.txt'])
    expect(watched).toEqual(walked)
    expect(await listings(log)).toContain('empty/f.txt')
  })

  it('follows a .gitignore change: a folder no longer ignored is recorded and watched', async () => {
    const setup = await setUp({}, { '.gitignore': 'out/\n', 'out/o.txt': 'o\n' })
    const { root, watching, walking } = setup
    await untilWatched(setup)
    const [freed, freedByWalk] = await commandTurn([watching, walking], root, async () => {
      await writeFile(join(root, '.gitignore'), '')
      await writeFile(join(root, 'out', 'o.txt'), 'o by the command\n')
    })
    expect(pathsOf(freed!)).toEqual(['.gitignore', 'out/o.txt'])
    expect(freed).toEqual(freedByWalk)
    await changedAgain(setup, 'out/o.txt')
  })

  it('does not take in a tracked file git came to ignore once it was deleted and made again', async () => {
    const setup = await setUp({}, { 'x.log': 'x\n' })
    const { root, watching, walking } = setup
    await untilWatched(setup)
    const stores = [watching, walking]
    const file = join(root, 'x.log')
    const turns = [
      await commandTurn(stores, root, async () => {
        await writeFile(join(root, '.gitignore'), '*.log\n')
        await writeFile(file, 'x, still tracked\n')
      }),
      await commandTurn(stores, root, () => rm(file)),
      await commandTurn(stores, root, () => writeFile(file, 'x, now ignored\n')),
    ]
    await writeFile(file, 'x by the person\n')
    turns.push(await commandTurn(stores, root, () => writeFile(file, 'x, ignored again\n')))
    expect(turns.map(([watched]) => pathsOf(watched!))).toEqual([
      ['.gitignore', 'x.log'],
      ['x.log'],
      [],
      [],
    ])
    for (const [watched, walked] of turns) expect(watched).toEqual(walked)
  })

  it('never records the files of an ignored folder, which it does not watch', async () => {
    const folders: string[] = []
    const folder: WatchFolder = (path, onEvent, onError) => {
      folders.push(path)
      return realWatch(path, onEvent, onError)
    }
    const setup = await setUp({ folder }, { '.gitignore': 'build/\n', 'build/out.js': '1\n' })
    const { root, watching, walking } = setup
    await untilWatched(setup)
    expect(folders).toContain(join(root, 'src'))
    expect(folders).not.toContain(join(root, 'build'))
    const [watched, walked] = await commandTurn([watching, walking], root, async () => {
      await writeFile(join(root, 'build', 'out.js'), '2\n')
      await writeFile(join(root, 'a.txt'), 'a by the build\n')
    })
    expect(pathsOf(watched!)).toEqual(['a.txt'])
    expect(watched).toEqual(walked)
  })
})

describe('what makes a walk full', () => {
  it('walks in full and watches all again after a flood, and records all of it', async () => {
    // Above the few events of a turn's own barriers.
    const setup = await setUp({ maxEvents: 12 })
    const { root, log, watching, walking } = setup
    await untilWatched(setup)
    const [watched, walked] = await commandTurn([watching, walking], root, async () => {
      await mkdir(join(root, 'flood'))
      for (let n = 0; n < 30; n++) await writeFile(join(root, 'flood', `f${n}.txt`), `${n}\n`)
    })
    expect(watched).toHaveLength(30)
    expect(watched).toEqual(walked)
    expect(await listings(log)).toContain('')
    // The folder the flood made is watched: its next change is a marked path.
    await changedAgain(setup, 'flood/f0.txt')
  })

  it('walks in full after more events than the bound on two files', async () => {
    const setup = await setUp({ maxEvents: 5 })
    const { root, log, watching, walking } = setup
    await untilWatched(setup)
    const [watched, walked] = await commandTurn([watching, walking], root, async () => {
      // Alternate files: inotify merges an event only into an identical one just before it.
      for (let n = 0; n < 10; n++)
        for (const name of ['a.txt', 'b.txt']) await writeFile(join(root, name), `${n}\n`)
    })
    expect(pathsOf(watched!)).toEqual(['a.txt', 'b.txt'])
    expect(watched).toEqual(walked)
    expect(await listings(log)).toContain('')
  })

  it('walks in full after an event naming a file whose name is not utf-8', async () => {
    const setup = await setUp()
    const { root, log, watching, walking } = setup
    await untilWatched(setup)
    const name = Buffer.concat([Buffer.from(`${root}/src/`), Buffer.from([0xff, 0x41])])
    const [watched, walked] = await commandTurn([watching, walking], root, async () => {
      await writeFile(name, 'odd\n')
      await writeFile(join(root, 'a.txt'), 'a by the command\n')
    })
    expect(watched).toEqual(walked)
    expect(await listings(log)).toContain('')
  })

  it('walks in full when the barrier does not arrive in time', async () => {
    // The barrier folder's events never come.
    const folder: WatchFolder = (path, onEvent, onError) =>
      realWatch(path, path.endsWith('watch') ? () => {} : onEvent, onError)
    const setup = await setUp({ folder, barrierMs: 20 })
    const { root, log, watching, walking } = setup
    await untilWatched(setup)
    const [watched, walked] = await commandTurn([watching, walking], root, () =>
      writeFile(join(root, 'a.txt'), 'a by the command\n'),
    )
    expect(pathsOf(watched!)).toEqual(['a.txt'])
    expect(watched).toEqual(walked)
    expect((await listings(log)).filter((only) => only === '')).toHaveLength(4)
  })

  it('walks at each snapshot once the barrier folder is gone, said once', async () => {
    const lines: string[] = []
    const setup = await setUp({ debug: (line) => lines.push(line) })
    const { root, state, log, watching, walking } = setup
    await untilWatched(setup)
    const [store] = await readdir(join(state, 'git'))
    await rm(join(state, 'git', store!, 'watch'), { recursive: true })
    const [watched, walked] = await commandTurn([watching, walking], root, () =>
      writeFile(join(root, 'a.txt'), 'a by the command\n'),
    )
    expect(pathsOf(watched!)).toEqual(['a.txt'])
    expect(watched).toEqual(walked)
    expect(watching.watchState(root)).toBe('walks')
    expect(await listings(log)).toEqual(['', '', '', ''])
    expect(lines).toEqual([expect.stringContaining('ENOENT')])
  })

  it('walks at each snapshot a root of more folders than the cap, said once', async () => {
    const lines: string[] = []
    const setup = await setUp({ maxFolders: 1, debug: (line) => lines.push(line) })
    const { root, watching, walking } = setup
    await commandTurn([watching, walking], root, async () => {})
    await expect.poll(() => watching.watchState(root)).toBe('walks')
    expect(lines).toEqual([expect.stringContaining('more than 1 folders')])
  })

  it('walks at each snapshot when a watch cannot be set, said once', async () => {
    const lines: string[] = []
    const folder: WatchFolder = () => {
      throw Object.assign(new Error('no inotify watches left'), { code: 'ENOSPC' })
    }
    const setup = await setUp({ folder, debug: (line) => lines.push(line) })
    const { root, log, watching, walking } = setup
    await commandTurn([watching, walking], root, async () => {})
    await expect.poll(() => watching.watchState(root)).toBe('walks')
    await writeFile(log, '')
    const [watched, walked] = await commandTurn([watching, walking], root, () =>
      writeFile(join(root, 'a.txt'), 'a by the command\n'),
    )
    expect(pathsOf(watched!)).toEqual(['a.txt'])
    expect(watched).toEqual(walked)
    expect(await listings(log)).toEqual(['', '', '', ''])
    expect(lines).toEqual([expect.stringContaining('no inotify watches left')])
  })

  it('takes a folder the command turned into a link as a link, and watches no folder there', async () => {
    const { folder, open } = countingWatch()
    const setup = await setUp({ folder }, { 'elsewhere/e.txt': 'e\n' })
    const { root, watching, walking } = setup
    await untilWatched(setup)
    expect(open()).toBe(4) // the root, src, elsewhere and the barrier folder
    const [watched, walked] = await commandTurn([watching, walking], root, async () => {
      await rm(join(root, 'src'), { recursive: true })
      await symlink('elsewhere', join(root, 'src'))
    })
    expect(pathsOf(watched!)).toEqual(['src', 'src/c.txt'])
    expect(watched).toEqual(walked)
    expect(open()).toBe(3)
  })

  it('lets go of the watches of a folder the command removed, its files recorded gone', async () => {
    const { folder, open } = countingWatch()
    const setup = await setUp({ folder }, { 'src/deep/d.txt': 'd\n' })
    const { root, watching, walking } = setup
    await untilWatched(setup)
    expect(open()).toBe(4) // the root, src, src/deep and the barrier folder
    const [watched, walked] = await commandTurn([watching, walking], root, () =>
      rm(join(root, 'src'), { recursive: true }),
    )
    expect(pathsOf(watched!)).toEqual(['src/c.txt', 'src/deep/d.txt'])
    expect(watched).toEqual(walked)
    expect(open()).toBe(2)
  })

  it('leaves no watch open once the store closes, and walks in full after', async () => {
    const { folder, open } = countingWatch()
    const setup = await setUp({ folder })
    const { root, log, watching, walking } = setup
    await untilWatched(setup)
    expect(open()).toBe(3) // the root, src and the barrier folder
    watching.close()
    expect(open()).toBe(0)
    const [watched, walked] = await commandTurn([watching, walking], root, () =>
      writeFile(join(root, 'a.txt'), 'a after the close\n'),
    )
    expect(watched).toEqual(walked)
    expect(await listings(log)).toEqual(['', '', '', ''])
    expect(open()).toBe(0)
  })
})

/** fs.watch, as the store's own watch does it. */
const realWatch: WatchFolder = (path, onEvent, onError) => {
  const watcher = watch(path, { persistent: false }, (_event, name) => onEvent(name ?? undefined))
  watcher.on('error', onError)
  return watcher
}
