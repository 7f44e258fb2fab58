// The snapshot providers on a real disk with the real git: a turn's changes (edit, create,
// delete, mode, CRLF, BOM) recorded between two snapshots and put back byte for byte; a file
// changed since kept unless overwritten; ignored and oversized files never stored; the
// person's own repository untouched; the record without git.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmod, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FilesUndoStore } from '../src/files-store'
import { GitUndoStore } from '../src/git-store'
import { restoreTurn } from '../src/restore'
import { editTurn, restoreOptions, tempDir, turnOf } from './helpers/turns'

const BOM_CRLF = Buffer.from('\ufeffline one\r\nline two\r\n')

async function treeHash(dir: string): Promise<string> {
  const hash = createHash('sha256')
  const walk = async (at: string): Promise<void> => {
    for (const entry of (await readdir(at, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(at, entry.name)
      hash.update(path)
      if (entry.isDirectory()) await walk(path)
      else hash.update(await readFile(path)).update(String((await stat(path)).mode))
    }
  }
  await walk(dir)
  return hash.digest('hex')
}

describe('the git store', () => {
  it('puts back an edit, a created, a deleted file and a mode byte for byte', async () => {
    const root = await tempDir('root')
    const state = await tempDir('state')
    await writeFile(join(root, 'crlf.txt'), BOM_CRLF)
    await writeFile(join(root, 'gone.txt'), 'keep me\n')
    await writeFile(join(root, 'run.sh'), '#!/bin/sh\n')
    await chmod(join(root, 'run.sh'), 0o644)
    await writeFile(join(root, '.gitattributes'), '* text=auto eol=lf\n')
    const before = await treeHash(root)
    const store = new GitUndoStore({ program: 'git', dir: state, maxFileBytes: 1 << 20 })
    const turn = await turnOf(store, root, async () => {
      await writeFile(join(root, 'crlf.txt'), 'replaced\n')
      await mkdir(join(root, 'new'))
      await writeFile(join(root, 'new', 'made.txt'), 'new\n')
      await rm(join(root, 'gone.txt'))
      await chmod(join(root, 'run.sh'), 0o755)
    })
    expect(turn.changes.map((c) => c.path).sort()).toEqual([
      'crlf.txt',
      'gone.txt',
      'new/made.txt',
      'run.sh',
    ])
    const outcomes = await restoreTurn(turn, 'undo', restoreOptions(store, root))
    expect(outcomes.map((o) => o.what)).toEqual([
      'edit reverted',
      'put back (the turn deleted it)',
      'removed (the turn created it)',
      'mode put back',
    ])
    await rm(join(root, 'new'), { recursive: true })
    expect(await treeHash(root)).toBe(before)
    expect(await readFile(join(root, 'crlf.txt'))).toEqual(BOM_CRLF)
  })

  it('keeps a file changed since the turn unless told to overwrite it', async () => {
    const { root, store, turn } = await editTurn()
    await writeFile(join(root, 'a.txt'), 'mine\n')
    const kept = await restoreTurn(turn, 'undo', restoreOptions(store, root))
    expect(kept).toEqual([
      { path: join(root, 'a.txt'), what: 'kept: changed since the turn', done: false },
    ])
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('mine\n')
    await restoreTurn(turn, 'undo', restoreOptions(store, root, true))
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one\n')
  })

  it("leaves ignored and oversized files out and the person's repository as it was", async () => {
    const root = await tempDir('root')
    const state = await tempDir('state')
    execFileSync('git', ['init', '-q'], { cwd: root })
    await writeFile(join(root, '.gitignore'), 'build/\n')
    await writeFile(join(root, 'a.txt'), 'one\n')
    execFileSync('git', ['add', '.'], { cwd: root })
    const repo = await treeHash(join(root, '.git'))
    const store = new GitUndoStore({ program: 'git', dir: state, maxFileBytes: 1000 })
    const turn = await turnOf(store, root, async () => {
      await mkdir(join(root, 'build'))
      await writeFile(join(root, 'build', 'out.js'), 'built\n')
      await writeFile(join(root, 'big.bin'), Buffer.alloc(5000, 1))
      await writeFile(join(root, 'a.txt'), 'two\n')
    })
    expect(turn.changes.map((c) => c.path)).toEqual(['a.txt'])
    expect(turn.skipped).toEqual(['big.bin'])
    expect(await treeHash(join(root, '.git'))).toBe(repo)
  })

  it('redoes what an undo took back', async () => {
    const { root, store, turn } = await editTurn()
    await restoreTurn(turn, 'undo', restoreOptions(store, root))
    const redone = await restoreTurn(turn, 'redo', restoreOptions(store, root))
    expect(redone.map((o) => o.what)).toEqual(['edit made again'])
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('two\n')
  })
})

describe('the record without git', () => {
  it('puts back what a file tool wrote, byte for byte', async () => {
    const root = await tempDir('root')
    const store = new FilesUndoStore({ dir: await tempDir('state'), maxFileBytes: 1 << 20 })
    await writeFile(join(root, 'crlf.txt'), BOM_CRLF)
    const file = join(root, 'crlf.txt')
    const turn = await turnOf(store, root, () => writeFile(file, 'replaced\n'), file)
    await restoreTurn(turn, 'undo', restoreOptions(store, root))
    expect(await readFile(file)).toEqual(BOM_CRLF)
  })

  it('does not see a file no file tool named', async () => {
    const root = await tempDir('root')
    const store = new FilesUndoStore({ dir: await tempDir('state'), maxFileBytes: 1 << 20 })
    const turn = await turnOf(store, root, () => writeFile(join(root, 'by-command.txt'), 'x'))
    expect(turn.changes).toEqual([])
  })
})
