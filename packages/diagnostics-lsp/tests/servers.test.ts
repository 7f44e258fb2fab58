// How the Python server is found for a file: a virtual environment or node_modules/.bin from the
// file's folder upward (the nearest wins, whichever of pyright and basedpyright it holds), then
// PATH; and run with the nearest virtual environment activated. Executables on a real disk;
// nothing is started.
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BUILT_IN_SERVERS } from '../src/servers'

const python = BUILT_IN_SERVERS.find((spec) => spec.name === 'python')!
let root: string | undefined

afterEach(async () => {
  vi.unstubAllEnvs()
  if (root !== undefined) await rm(root, { recursive: true, force: true })
  root = undefined
})

/** A folder with these files, those under a `bin` folder executable; the PATH is `tools`. */
async function layout(paths: string[]): Promise<string> {
  root = await realpath(await mkdtemp(join(tmpdir(), 'dsh-lsp-find-')))
  await mkdir(join(root, 'tools'))
  for (const path of paths) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), '#!/bin/sh\n')
    if (/bin\//.test(path)) await chmod(join(root, path), 0o755)
  }
  vi.stubEnv('PATH', join(root, 'tools'))
  return root
}

describe('the python server', () => {
  it('is the workspace virtual environment one for a member project', async () => {
    const dir = await layout(['.venv/bin/pyright-langserver', 'pkg/pyproject.toml'])
    expect(python.command(join(dir, 'pkg'), join(dir, 'pkg/a.py'))).toEqual([
      join(dir, '.venv/bin/pyright-langserver'),
      '--stdio',
    ])
  })

  it('is the nearest folder one, whichever server it is', async () => {
    const dir = await layout([
      '.venv/bin/pyright-langserver',
      'pkg/node_modules/.bin/basedpyright-langserver',
    ])
    expect(python.command(dir, join(dir, 'pkg/src/a.py'))).toEqual([
      join(dir, 'pkg/node_modules/.bin/basedpyright-langserver'),
      '--stdio',
    ])
  })

  it('is found on PATH when the project has none', async () => {
    const dir = await layout(['venv/lib/pyright-langserver'])
    await writeFile(join(dir, 'tools/pyright-langserver'), '#!/bin/sh\n', { mode: 0o755 })
    expect(python.command(dir, join(dir, 'a.py'))).toEqual([
      join(dir, 'tools/pyright-langserver'),
      '--stdio',
    ])
  })

  it('is missing, and says which servers, where none is installed', async () => {
    const dir = await layout(['.venv/bin/python'])
    expect(python.command(dir, join(dir, 'a.py'))).toEqual({
      missing: 'neither pyright-langserver nor basedpyright-langserver is installed',
    })
  })
  it('runs with the nearest virtual environment that has a python activated', async () => {
    const dir = await layout(['.venv/bin/python', 'pkg/venv/bin/pyright-langserver'])
    expect(python.env?.(dir, join(dir, 'pkg/a.py'))).toEqual({
      VIRTUAL_ENV: join(dir, '.venv'),
      PATH: `${join(dir, '.venv/bin')}:${join(dir, 'tools')}`,
    })
  })

  it('runs with the environment as it is where no virtual environment has a python', async () => {
    const dir = await layout(['.venv/bin/pyright-langserver'])
    expect(python.env?.(dir, join(dir, 'a.py'))).toBeUndefined()
  })
})
