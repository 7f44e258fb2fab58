// Servers that misbehave (a fake one, configured through the project's .dsh/lsp.json): one that
// never answers holds no edit past the bound; one that crashes is restarted once, then turned
// off for the session with a notice; one that pushes its diagnostics is waited for; the python
// server runs in the project's virtual environment.
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { makeProject, mountTools, processesWith, textOf } from './helpers/project'
import type { Mounted } from './helpers/project'

const FAKE = fileURLToPath(new URL('./helpers/fake-server.mjs', import.meta.url))

let mounted: Mounted | undefined
afterEach(async () => {
  await mounted?.dispose()
  mounted = undefined
})

async function projectWith(mode: string): Promise<string> {
  const root = await makeProject({ 'a.fake': 'one\ntwo\n' }, { typescript: false })
  const servers = { fake: { command: [process.execPath, FAKE, mode], extensions: ['.fake'] } }
  await writeServers(root, servers)
  return root
}

async function writeServers(root: string, servers: Record<string, unknown>): Promise<void> {
  await mkdir(join(root, '.dsh'))
  await writeFile(join(root, '.dsh', 'lsp.json'), JSON.stringify({ servers }))
}

const edit = (to: Mounted, from: string, into: string) =>
  to.run('edit', { file_path: 'a.fake', old_string: from, new_string: into })

describe('a server that never answers', () => {
  it('holds the first edit no longer than the start bound, and says so', async () => {
    mounted = await mountTools(await projectWith('mute'), { sandbox: 'off', startMs: 300 })
    const started = performance.now()
    const result = await edit(mounted, 'one', 'BAD one')
    expect(performance.now() - started).toBeLessThan(3000)
    expect(textOf(result)).toContain('Diagnostics were not ready')
  })

  it('holds a later edit no longer than the wait bound', async () => {
    mounted = await mountTools(await projectWith('silent'), {
      sandbox: 'off',
      startMs: 300,
      waitMs: 200,
    })
    await edit(mounted, 'one', 'BAD one')
    const started = performance.now()
    const result = await edit(mounted, 'two', 'BAD two')
    expect(performance.now() - started).toBeLessThan(2000)
    expect(textOf(result)).toContain('Diagnostics were not ready within 0.2 s')
  })
})

describe('a server that publishes', () => {
  it('is waited for, and its new error reported once', async () => {
    mounted = await mountTools(await projectWith('echo'), { sandbox: 'off', startMs: 20_000 })
    const first = await edit(mounted, 'one', 'BAD one')
    expect(textOf(first)).toContain('a.fake:1:1 error F1: BAD is bad')
    const second = await edit(mounted, 'two', 'BAD two')
    expect(textOf(second)).toContain('a.fake:2:1 error F1: BAD is bad')
    expect(textOf(second)).not.toContain('a.fake:1:1')
  })
})

describe('the end of a server', () => {
  it('comes when the agent using it is released, and with the provider', async () => {
    mounted = await mountTools(await projectWith('echo'), { sandbox: 'off', startMs: 20_000 })
    const running = () => processesWith(`${FAKE} echo`)
    await edit(mounted, 'one', 'BAD one')
    expect(running()).toHaveLength(1)
    mounted.release()
    await expect.poll(running).toEqual([])
    await edit(mounted, 'two', 'BAD two')
    expect(running()).toHaveLength(1)
    await mounted.dispose()
    mounted = undefined
    expect(running()).toEqual([])
  })
})

describe('a server that crashes', () => {
  it('is restarted once, then turned off for the session with a one-line notice', async () => {
    mounted = await mountTools(await projectWith('crash'), { sandbox: 'off', startMs: 20_000 })
    const first = await edit(mounted, 'one', 'uno')
    expect(textOf(first)).toContain('Diagnostics were not ready')
    const second = textOf(await edit(mounted, 'two', 'dos'))
      .split('\n')
      .slice(2)
    expect(second).toEqual([
      'The fake language server stopped twice (fake server: crashed on purpose); diagnostics for fake files are off for this session.',
      'Diagnostics were not ready within 20 s (the fake server is still working); call the diagnostics tool later to see the errors.',
    ])
    const third = await edit(mounted, 'dos', 'zwei')
    expect(textOf(third)).toBe(
      `Edited file ${mounted.root}/a.fake: replaced 1 occurrence at line 2.`,
    )
  })
})

describe('the python server', () => {
  it("runs with the project's virtual environment activated, its command changed or not", async () => {
    const root = await makeProject(
      { 'pyproject.toml': '', 'a.py': 'one\n', '.venv/bin/python': '#!/bin/sh\n' },
      { typescript: false },
    )
    await chmod(join(root, '.venv/bin/python'), 0o755)
    await writeServers(root, { python: { command: [process.execPath, FAKE, 'env'] } })
    mounted = await mountTools(root, { sandbox: 'off', startMs: 20_000 })
    const result = await mounted.run('edit', {
      file_path: 'a.py',
      old_string: 'one',
      new_string: 'ENV',
    })
    expect(textOf(result)).toContain(`a.py:1:1 error F1: VIRTUAL_ENV=${root}/.venv`)
  })
})
