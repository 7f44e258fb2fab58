// A session's warm-up (`tools/warm-up`, sent as it opens): its roots' real paths are resolved
// then, once, and its calls ask the provider for none of them again. A root made after the
// session opened is inside once made: one that did not exist is judged by its nearest existing
// ancestor, and one the provider could not explain then (a link loop) is looked for again. On the real disk, in auto-edit (an edit inside runs, one outside is asked).
import { mkdir, rm, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { untraced } from '@deepseek-ai/dsh-tools'
import { makeDiskWorkspace } from './helpers/disk'
import type { DiskWorkspace } from './helpers/disk'
import { makeHarness, session } from './helpers/harness'
import type { Harness } from './helpers/harness'

const RAN = { ran: true, asked: 0, code: undefined }

let disk: DiskWorkspace
beforeAll(async () => {
  disk = await makeDiskWorkspace()
})
afterAll(() => disk.cleanup())

/** The paths the permission layer asks the provider to resolve, as it asks. */
function watchRealPaths(harness: Harness): string[] {
  const fs = untraced(harness.ctx.fs)
  const realPath = fs.realPath.bind(fs)
  const asked: string[] = []
  vi.spyOn(fs, 'realPath').mockImplementation((path, options) => {
    asked.push(path)
    return realPath(path, options)
  })
  return asked
}

async function edit(harness: Harness, path: string, where: ReturnType<typeof session>) {
  harness.reset()
  return harness.outcome(await harness.call('edit', path, { session: where }))
}

describe('the warm-up of a session', () => {
  it('resolves its roots once, so its calls resolve none of them', async () => {
    const harness = await makeHarness({ disk: disk.work })
    const asked = watchRealPaths(harness)
    const opened = session(disk.work, { mode: 'auto-edit', roots: [disk.work, disk.other] })
    harness.ctx.emit('tools/warm-up', { session: opened })
    // The roots, then the scope check run once on the session's folder.
    await vi.waitFor(() => expect(asked).toEqual([disk.work, disk.other, disk.work]))
    const before = asked.length
    expect(await edit(harness, 'a.txt', opened)).toEqual(RAN)
    expect(await edit(harness, join(disk.other, 'c.txt'), opened)).toEqual(RAN)
    expect(asked.slice(before)).toEqual(['a.txt', join(disk.other, 'c.txt')])
  })

  it('takes a root that did not exist when the session opened as inside once made', async () => {
    const harness = await makeHarness({ disk: disk.work })
    const later = join(disk.outside, 'made-later')
    const opened = session(disk.work, { mode: 'auto-edit', roots: [disk.work, later] })
    harness.ctx.emit('tools/warm-up', { session: opened })
    // A call inside the first root: the roots known at the opening have been resolved.
    expect(await edit(harness, 'a.txt', opened)).toEqual(RAN)
    await mkdir(later)
    expect(await edit(harness, join(later, 'new.txt'), opened)).toEqual(RAN)
  })

  it('looks again for a root the provider could not explain when the session opened', async () => {
    const harness = await makeHarness({ disk: disk.work })
    const cycle = join(disk.outside, 'cycle')
    await symlink(cycle, cycle)
    const opened = session(disk.work, { mode: 'auto-edit', roots: [disk.work, cycle] })
    harness.ctx.emit('tools/warm-up', { session: opened })
    expect(await edit(harness, 'a.txt', opened)).toEqual(RAN)
    await rm(cycle)
    await mkdir(cycle)
    expect(await edit(harness, join(cycle, 'new.txt'), opened)).toEqual(RAN)
  })
})
