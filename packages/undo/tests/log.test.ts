// The undo log and its bounds: the last `keep` turns kept, undone turns dropped by a new one,
// the log read back from disk, a deleted session's log and refs gone, and a path outside the
// session's roots never touched.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gitEnv } from '../src/git'
import { GitUndoStore } from '../src/git-store'
import { restoreTurn } from '../src/restore'
import { dropSessionUndo } from '../src/session-undo'
import { TurnLog } from '../src/turn-log'
import type { UndoTurn } from '../src/types'
import { editTurn, tempDir } from './helpers/turns'

const turn = (turnId: string, undone = false): UndoTurn => ({
  turnId,
  title: turnId,
  at: '',
  store: 'files',
  changes: [],
  skipped: [],
  undone,
})

describe('the undo log', () => {
  it('keeps the last turns and lets the oldest go', async () => {
    const log = await TurnLog.open(await tempDir('state'), 's1')
    for (const id of ['t1', 't2', 't3']) log.put(turn(id), 2)
    expect(log.turns.map((t) => t.turnId)).toEqual(['t2', 't3'])
  })

  it('drops undone turns when a new turn is recorded', async () => {
    const log = await TurnLog.open(await tempDir('state'), 's1')
    log.put(turn('t1'), 5)
    const dropped = log.put(turn('t2', true), 5)
    expect(dropped).toEqual([])
    expect(log.put(turn('t3'), 5).map((t) => t.turnId)).toEqual(['t2'])
    expect(log.turns.map((t) => t.turnId)).toEqual(['t1', 't3'])
  })

  it('is read back from disk, and a log cut short reads as empty', async () => {
    const dir = await tempDir('state')
    const log = await TurnLog.open(dir, 's1')
    log.put(turn('t1'), 5)
    await log.save()
    expect((await TurnLog.open(dir, 's1')).lastDone()?.turnId).toBe('t1')
    await writeFile(join(dir, 'turns', 's1.json'), '{"version":1,"tu')
    expect((await TurnLog.open(dir, 's1')).turns).toEqual([])
  })
})

describe('a deleted session', () => {
  it("loses its log and the refs that held its turns' trees", async () => {
    const root = await tempDir('root')
    const dir = await tempDir('state')
    await writeFile(join(root, 'a.txt'), 'one\n')
    const store = new GitUndoStore({ program: 'git', dir, maxFileBytes: 1 << 20 })
    const recorder = store.begin('s1', [root])
    await recorder.beforeCall()
    await writeFile(join(root, 'a.txt'), 'two\n')
    await recorder.afterCall()
    const log = await TurnLog.open(dir, 's1')
    log.put({ ...turn('t1'), store: 'git', ...(await recorder.finish()) }, 5)
    await log.save()
    await store.retain('s1', log.turns, [])
    const gitDir = join(dir, 'git')
    const refs = () =>
      execFileSync('git', ['for-each-ref', '--format=%(refname)'], {
        env: gitEnv({ program: 'git', gitDir: join(gitDir, onlyStore(gitDir)) }),
      }).toString()
    expect(refs()).toBe('refs/dsh/s1/t1/after\nrefs/dsh/s1/t1/before\n')
    await dropSessionUndo(dir, Promise.resolve(store), 's1')
    expect(existsSync(join(dir, 'turns', 's1.json'))).toBe(false)
    expect(refs()).toBe('')
  })
})

describe('the roots', () => {
  it("never touches a file outside the session's roots", async () => {
    const { root, store, turn: recorded } = await editTurn()
    const outcomes = await restoreTurn(recorded, 'undo', {
      store,
      sessionId: 's1',
      roots: [await tempDir('other')],
      overwrite: async () => true,
    })
    expect(outcomes.map((o) => o.what)).toEqual(["left: outside the session's roots"])
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('two\n')
  })
})

function onlyStore(dir: string): string {
  const names = execFileSync('ls', [dir]).toString().trim().split('\n')
  if (names.length !== 1) throw new Error(`expected one store in ${dir}: ${names.join(', ')}`)
  return names[0]!
}
