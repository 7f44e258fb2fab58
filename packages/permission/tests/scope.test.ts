// Inside or outside the session's roots, decided on real paths: on the real disk (real
// symlinks) and on MemoryFileSystem (no symlinks) where a case applies. Every case runs the
// edit tool in auto-edit mode, where an edit inside runs and one outside is asked.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ToolSession } from '@deepseek-ai/dsh-tools'
import { makeHarness, session } from './helpers/harness'
import type { Harness } from './helpers/harness'
import { makeDiskWorkspace } from './helpers/disk'
import type { DiskWorkspace } from './helpers/disk'

const RAN = { ran: true, asked: 0, code: undefined }
const ASKED = { ran: true, asked: 1, code: undefined }

async function edit(harness: Harness, args: string | object, where: ToolSession, tool = 'edit') {
  return harness.outcome(await harness.call(tool, args, { session: where }))
}

describe('scope on the real disk', () => {
  let disk: DiskWorkspace
  beforeAll(async () => {
    disk = await makeDiskWorkspace()
  })
  afterAll(() => disk.cleanup())

  const inWork = (header: Parameters<typeof session>[1] = {}) =>
    session(disk.work, { mode: 'auto-edit', ...header })
  const harness = () => makeHarness({ disk: disk.work })

  it('a file inside the root is inside', async () => {
    expect(await edit(await harness(), 'a.txt', inWork())).toEqual(RAN)
  })

  it('a .. path leaving the root is outside', async () => {
    expect(await edit(await harness(), '../outside/secret.txt', inWork())).toEqual(ASKED)
  })

  it('an absolute path outside the root is outside', async () => {
    const path = join(disk.outside, 'secret.txt')
    expect(await edit(await harness(), path, inWork())).toEqual(ASKED)
  })

  it('a symlinked file inside pointing outside is outside', async () => {
    expect(await edit(await harness(), 'link.txt', inWork())).toEqual(ASKED)
  })

  it('a change through a link is asked naming the file that really changes', async () => {
    const h = await harness()
    expect(await edit(h, 'link.txt', inWork())).toEqual(ASKED)
    const [asked] = h.asked
    const real = join(disk.outside, 'secret.txt')
    expect(asked!.presentation.title).toBe(`edit link.txt → ${real}`)
    expect(asked!.presentation.locations).toEqual([{ path: real }])
    expect(asked!.preview[0]).toEqual({
      type: 'text',
      text: `${join(disk.work, 'link.txt')} leads to ${real}: that is what changes.`,
    })
    h.reset()
    expect(await edit(h, 'linkdir/new.txt', inWork())).toEqual(ASKED)
    expect(h.asked[0]!.presentation.title).toBe(
      `edit linkdir/new.txt → ${join(disk.outside, 'new.txt')}`,
    )
  })

  it('a change of a plain file names just that file', async () => {
    const h = await harness()
    const path = join(disk.outside, 'secret.txt')
    expect(await edit(h, path, inWork())).toEqual(ASKED)
    expect(h.asked[0]!.presentation.title).toBe(`edit ${path}`)
    expect(JSON.stringify(h.asked[0]!.preview)).not.toContain('leads to')
  })

  it('a file under a symlinked directory pointing outside is outside', async () => {
    expect(await edit(await harness(), 'linkdir/secret.txt', inWork())).toEqual(ASKED)
  })

  it('a root that is a symlink keeps calls inside it inside', async () => {
    const h = await harness()
    const viaLink = session(disk.alias, { mode: 'auto-edit' })
    expect(await edit(h, 'a.txt', viaLink)).toEqual(RAN)
    expect(await edit(h, join(disk.work, 'a.txt'), viaLink)).toEqual(RAN)
  })

  it('a path that does not exist yet is judged by its nearest existing ancestor', async () => {
    expect(await edit(await harness(), 'new/dir/file.txt', inWork())).toEqual(RAN)
  })

  it('a missing path under a symlinked directory pointing outside is outside', async () => {
    expect(await edit(await harness(), 'linkdir/new/file.txt', inWork())).toEqual(ASKED)
  })

  it('an additional root makes its files inside', async () => {
    const h = await harness()
    const path = join(disk.other, 'c.txt')
    expect(await edit(h, path, inWork({ roots: [disk.work, disk.other] }))).toEqual(RAN)
    h.reset()
    expect(await edit(h, path, inWork())).toEqual(ASKED)
  })

  it('a multi-location call with one location outside is outside', async () => {
    const h = await harness()
    const paths = ['a.txt', 'link.txt']
    expect(await edit(h, { paths }, inWork(), 'read_many')).toEqual(ASKED)
    h.reset()
    expect(await edit(h, { paths: ['a.txt', 'new.txt'] }, inWork(), 'read_many')).toEqual(RAN)
  })

  it('a path the disk cannot explain (a link loop) is outside', async () => {
    expect(await edit(await harness(), 'loop', inWork())).toEqual(ASKED)
  })

  it('a root the disk cannot explain holds nothing', async () => {
    const h = await harness()
    const loopRoot = session(join(disk.work, 'loop'), { mode: 'auto-edit' })
    expect(await edit(h, join(disk.work, 'loop', 'x.txt'), loopRoot)).toEqual(ASKED)
  })
})

describe('scope on MemoryFileSystem', () => {
  async function harness() {
    const h = await makeHarness()
    h.memory.putText('/w/a.txt', 'a\n')
    h.memory.putText('/x/b.txt', 'b\n')
    h.memory.putText('/o/c.txt', 'c\n')
    return h
  }
  const inWork = (header: Parameters<typeof session>[1] = {}) =>
    session('/w', { mode: 'auto-edit', ...header })

  it('a .. path leaving the root is outside on memory', async () => {
    expect(await edit(await harness(), '../x/b.txt', inWork())).toEqual(ASKED)
  })

  it('a .. path that comes back into the root is inside on memory', async () => {
    expect(await edit(await harness(), '../w/a.txt', inWork())).toEqual(RAN)
  })

  it('an absolute path outside the root is outside on memory', async () => {
    expect(await edit(await harness(), '/x/b.txt', inWork())).toEqual(ASKED)
  })

  it('a sibling whose name starts with the root name is outside on memory', async () => {
    expect(await edit(await harness(), '/w2/a.txt', inWork())).toEqual(ASKED)
  })

  it('a path that does not exist yet inside the root is inside on memory', async () => {
    expect(await edit(await harness(), 'new/file.txt', inWork())).toEqual(RAN)
  })

  it('an additional root makes its files inside on memory', async () => {
    const h = await harness()
    expect(await edit(h, '/o/c.txt', inWork({ roots: ['/w', '/o'] }))).toEqual(RAN)
    h.reset()
    expect(await edit(h, '/o/c.txt', inWork())).toEqual(ASKED)
  })

  it('roots without the cwd leave the cwd outside on memory', async () => {
    expect(await edit(await harness(), 'a.txt', inWork({ roots: ['/o'] }))).toEqual(ASKED)
  })

  it('a multi-location call with one location outside is outside on memory', async () => {
    const h = await harness()
    expect(await edit(h, { paths: ['a.txt', '/x/b.txt'] }, inWork(), 'read_many')).toEqual(ASKED)
  })

  it('a call with no location is outside on memory', async () => {
    expect(await edit(await harness(), { paths: [] }, inWork(), 'read_many')).toEqual(ASKED)
  })
})
