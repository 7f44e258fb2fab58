import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import LocalFileSystem from '../src/index'
import { bundleDriver } from './helpers/child/bundle'
import { crashContent } from './helpers/child/driver'

const KILLS = 55
const MEGABYTES = 3

async function startWriter(script: string, cwd: string) {
  const child = spawn(process.execPath, [script, 'loop', 'big.txt', String(MEGABYTES)], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const stderr: string[] = []
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()))
  // The first write has completed once the child says so.
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => resolve())
    child.on('exit', (code) => reject(new Error(`writer exited (${code}): ${stderr.join('')}`)))
  })
  return child
}

describe('crash safety', () => {
  let driver: { script: string; directory: string }
  let root: string

  beforeAll(async () => {
    driver = await bundleDriver()
    root = await realpath(await mkdtemp(join(tmpdir(), 'dsh-crash-')))
  }, 60_000)
  afterAll(async () => {
    await rm(driver.directory, { recursive: true, force: true })
    await rm(root, { recursive: true, force: true })
  })

  it('leaves one whole content after every SIGKILL of a writer', async () => {
    const contents = [crashContent(0, MEGABYTES), crashContent(1, MEGABYTES)]
    const seen = [0, 0]
    let kills = 0
    for (; kills < KILLS; kills++) {
      const child = await startWriter(driver.script, root)
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 150))
      const exited = once(child, 'exit')
      child.kill('SIGKILL')
      await exited
      const text = await readFile(join(root, 'big.txt'), 'utf8')
      const index = contents.indexOf(text)
      expect(
        index,
        `after kill ${kills + 1} the file holds ${text.length} characters of neither content`,
      ).not.toBe(-1)
      seen[index]! += 1
    }
    const entries = await readdir(root)
    const temps = entries.filter((name) => /^\.big\.txt\.\d+\.[0-9a-f]{12}\.dsh-tmp$/.test(name))
    const locks = entries.filter((name) => name === '.big.txt.dsh-lock')
    expect(
      entries.filter((name) => name !== 'big.txt' && ![...temps, ...locks].includes(name)),
    ).toEqual([])
    // Each writer removes the leftovers of dead writers first: only the last kill's can remain.
    expect(temps.length).toBeLessThanOrEqual(1)
    // The next write takes the dead writer's lock over and leaves nothing behind.
    const ctx = new Context()
    await ctx.plugin(LocalFileSystem, { cwd: root })
    await ctx.fs.writeText(await ctx.fs.resolve('big.txt'), 'after')
    expect(await readdir(root)).toEqual(['big.txt'])
    console.log(
      `crash safety: ${kills} SIGKILLs of a ${MEGABYTES} MiB writer; file held the first content ${seen[0]} times, the second ${seen[1]} times; ${temps.length} temporary file and ${locks.length} lock left by the last kill, none after the next write`,
    )
  }, 240_000)
})
