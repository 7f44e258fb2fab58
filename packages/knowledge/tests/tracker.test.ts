// The instruction tracker on a real temporary disk: the first set in order, the total cap
// leaving the broadest files out, nested folders added once (never inside node_modules), a
// removed file said gone, and the state rebuilt from the notes' records.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FILE_LIMIT, TOTAL_LIMIT } from '../src/instruction-render'
import { InstructionTracker } from '../src/instruction-tracker'
import type { InstructionNoteData } from '../src/instruction-tracker'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function tree(files: Record<string, string>): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'dsh-tracker-')))
  dirs.push(root)
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), text)
  }
  return root
}

function trackerOf(root: string, cwd = root): InstructionTracker {
  return new InstructionTracker({
    root,
    cwd,
    added: [],
    global: join(root, 'config/dsh/AGENTS.md'),
    show: (path) => path.slice(root.length + 1),
  })
}

describe('the instruction tracker', () => {
  it('sends root to cwd in order, then nothing until something changes', async () => {
    const root = await tree({
      'config/dsh/AGENTS.md': 'G',
      'AGENTS.md': 'R',
      'CLAUDE.local.md': 'RL',
      'a/AGENTS.md': 'A',
      'a/b/CLAUDE.md': 'B',
    })
    const tracker = trackerOf(root, join(root, 'a/b'))
    const [note] = await tracker.notes()
    const order = ['G', 'R', 'RL', 'A', 'B'].map((text) =>
      note!.text.indexOf(`>\n${text}\n</file>`),
    )
    expect(order.every((at, index) => at > 0 && (index === 0 || at > order[index - 1]!))).toBe(true)
    expect(note!.display).toBe(
      'Project instructions: config/dsh/AGENTS.md, AGENTS.md, CLAUDE.local.md, a/AGENTS.md, a/b/CLAUDE.md',
    )
    expect(await tracker.notes()).toEqual([])
  })

  it('past the total the broadest files are left out, and the model is told', async () => {
    const big = (mark: string) => `${mark}\n${'x'.repeat(FILE_LIMIT - 10)}\n`
    const root = await tree({
      'AGENTS.md': big('ROOT'),
      'a/AGENTS.md': big('A'),
      'a/b/AGENTS.md': big('B'),
      'a/b/c/AGENTS.md': big('C'),
    })
    expect(4 * FILE_LIMIT).toBeGreaterThan(TOTAL_LIMIT)
    const [note] = await trackerOf(root, join(root, 'a/b/c')).notes()
    expect(note!.text).not.toContain('ROOT\n')
    expect(note!.text).toContain(`[${join(root, 'AGENTS.md')} (`)
    expect(note!.text).toContain('was left out to keep all instruction files within')
    for (const mark of ['A', 'B', 'C']) expect(note!.text).toContain(`>\n${mark}\n`)
  })

  it('a reached folder adds the files between once; node_modules is never looked in', async () => {
    const root = await tree({
      'AGENTS.md': 'R',
      'p/AGENTS.md': 'P',
      'p/q/AGENTS.md': 'Q',
      'p/q/x.ts': '',
      'node_modules/m/AGENTS.md': 'M',
    })
    const tracker = trackerOf(root)
    await tracker.notes()
    tracker.discover([join(root, 'p/q/x.ts'), 'node_modules/m/index.js'])
    const [nested] = await tracker.notes()
    expect(nested!.text).toContain('>\nP\n')
    expect(nested!.text).toContain('>\nQ\n')
    expect(nested!.text).not.toContain('>\nM\n')
    tracker.discover([join(root, 'p/q')])
    expect(await tracker.notes()).toEqual([])
  })

  it('a removed file is said gone, once; a loaded session knows what was sent', async () => {
    const root = await tree({ 'AGENTS.md': 'R', 'p/AGENTS.md': 'P', 'p/x.ts': '' })
    const tracker = trackerOf(root)
    const records: InstructionNoteData[] = []
    const take = async () => {
      const notes = await tracker.notes()
      records.push(...notes.map((note) => note.data))
      return notes
    }
    await take()
    tracker.discover(['p/x.ts'])
    await take()
    await rm(join(root, 'p/AGENTS.md'))
    const [gone] = await take()
    expect(gone!.text).toContain(
      `[${join(root, 'p/AGENTS.md')} was removed: its instructions no longer apply.]`,
    )
    expect(gone!.display).toBe('Project instructions: p/AGENTS.md (removed)')
    expect(await tracker.notes()).toEqual([])

    const loaded = trackerOf(root)
    loaded.restore(records)
    expect(await loaded.notes()).toEqual([])
    await writeFile(join(root, 'p/AGENTS.md'), 'P again')
    const [back] = await loaded.notes()
    expect(back!.text).toContain('>\nP again\n')
    expect(loaded.carried()).toContain('>\nR\n')
  })
})
