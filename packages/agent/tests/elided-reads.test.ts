// A file whose read output was elided by a compaction stays observed: the read-before-write
// policy tracks what the session read, not what the conversation still holds, so an edit of
// the unchanged file goes through without a new read, and a write over a file changed on
// disk since is still refused as stale. Real fs stack on a mkdtemp workspace.
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import { loadFileTools } from './helpers/file-tools'
import { afterEach, expect, it } from 'vitest'
import Agents from '../src'
import type { SessionEvent } from '../src'
import { WindowedLlm, readCall } from './helpers/windowed'

let cleanup: (() => Promise<void>) | undefined
afterEach(async () => {
  await cleanup?.()
  cleanup = undefined
})

const of = <T extends SessionEvent['type']>(events: readonly SessionEvent[], type: T) =>
  events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type)

const edit = (id: string, path: string, from: string, to: string) => ({
  id,
  name: 'edit',
  arguments: { file_path: path, old_string: from, new_string: to },
})

it('an elided read keeps its file observed: an unchanged file is edited, a changed one refused as stale', async () => {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-elided-')))
  await writeFile(join(dir, 'a.txt'), 'alpha\n')
  await writeFile(join(dir, 'b.txt'), 'beta\n')
  const big = Array.from(
    { length: 150 },
    (_, n) => `line ${n + 1} of a large file with some text`,
  ).join('\n')
  for (let i = 1; i <= 5; i += 1) await writeFile(join(dir, `big${i}.txt`), `${big}\n`)
  const ctx = new Context()
  await loadFileTools(ctx, dir)
  await ctx.plugin(WindowedLlm, {
    window: 9000,
    responses: [
      { calls: [readCall('ra', 'a.txt'), readCall('rb', 'b.txt')] },
      ...Array.from({ length: 5 }, (_, i) => ({
        calls: [readCall(`big${i + 1}`, `big${i + 1}.txt`)],
      })),
      { text: 'Read them.' },
      { calls: [edit('ea', 'a.txt', 'alpha', 'ALPHA'), edit('eb', 'b.txt', 'beta', 'BETA')] },
      { text: 'Done.' },
    ],
  })
  const fiber = await ctx.plugin(Agents, { compaction: { keepRecentSteps: 2 } }).await()
  cleanup = async () => {
    await fiber.dispose()
    await rm(dir, { recursive: true, force: true })
  }
  const agent = ctx.agents.create({ cwd: dir })
  expect((await agent.send('read the files')).reason).toBe('completed')
  const elided = of(agent.session.events, 'context/compacted').flatMap((e) =>
    e.replaced.map((r) => r.callId),
  )
  expect(elided).toEqual(expect.arrayContaining(['ra', 'rb']))

  await writeFile(join(dir, 'b.txt'), 'changed by a person\n')
  expect((await agent.send('now edit them')).reason).toBe('completed')
  const results = of(agent.session.events, 'tool/result').filter((r) => r.callId.startsWith('e'))
  expect(results.map((r) => [r.callId, r.isError, r.error?.code])).toEqual([
    ['ea', false, undefined],
    ['eb', true, 'FS_STALE_VERSION'],
  ])
  expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('ALPHA\n')
  expect(await readFile(join(dir, 'b.txt'), 'utf8')).toBe('changed by a person\n')
})
