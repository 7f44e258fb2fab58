// Looking for git without running it: the undo service picks its store at start from this,
// and git runs first at the first snapshot.
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findProgram } from '../src/git'
import { tempDir } from './helpers/turns'

describe('finding a program on PATH', () => {
  it('finds git in the folders of the real PATH', async () => {
    expect(await findProgram('git')).toBe(true)
  })

  it('finds only an executable file: not a folder, not a file without the execute bit', async () => {
    const root = await tempDir('find-program')
    const [folders, plain, runnable] = ['folders', 'plain', 'runnable'].map((name) =>
      join(root, name),
    )
    await mkdir(join(folders, 'tool'), { recursive: true })
    await mkdir(plain)
    await writeFile(join(plain, 'tool'), '#!/bin/sh\n')
    await mkdir(runnable)
    await writeFile(join(runnable, 'tool'), '#!/bin/sh\n')
    await chmod(join(runnable, 'tool'), 0o755)
    expect(await findProgram('tool', [folders, plain].join(':'))).toBe(false)
    expect(await findProgram('tool', ['', folders, plain, runnable].join(':'))).toBe(true)
    expect(await findProgram(join(runnable, 'tool'), '')).toBe(true)
    expect(await findProgram(join(plain, 'tool'), runnable)).toBe(false)
    expect(await findProgram('missing-tool', runnable)).toBe(false)
  })
})
