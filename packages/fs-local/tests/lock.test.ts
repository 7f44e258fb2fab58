// The lock between processes: a write waits while another process holds the file's lock, and
// takes the lock over once that process is SIGKILLed while holding it; a dead holder's lock is
// taken over at once; no lock is left after any change.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { bundleDriver } from './helpers/child/bundle'
import { setupLocal, type LocalSetup } from './helpers/local'

let driver: { script: string; directory: string }
let local: LocalSetup
beforeAll(async () => {
  driver = await bundleDriver()
}, 60_000)
afterAll(() => rm(driver.directory, { recursive: true, force: true }))
beforeEach(async () => {
  local = await setupLocal()
})
afterEach(() => local.cleanup())

/** A child process holding the lock of `name` in the workspace, once it says so. */
async function startHolder(name: string) {
  const child = spawn(process.execPath, [driver.script, 'hold', local.root, name], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => resolve())
    child.on('exit', (code) => reject(new Error(`holder exited (${code}): ${stderr}`)))
  })
  return child
}

describe('the lock between processes', () => {
  it('a write waits for a live holder and lands once the holder is SIGKILLed', async () => {
    await writeFile(join(local.root, 'a.txt'), 'before')
    const holder = await startHolder('a.txt')
    expect(await readdir(local.root)).toContain('.a.txt.dsh-lock')
    let settled = false
    const write = local.fs
      .writeText(await local.fs.resolve('a.txt'), 'after')
      .finally(() => (settled = true))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(settled).toBe(false)
    expect(await readFile(join(local.root, 'a.txt'), 'utf8')).toBe('before')
    const exited = once(holder, 'exit')
    holder.kill('SIGKILL')
    await exited
    expect((await write).operation).toBe('update')
    expect(await readFile(join(local.root, 'a.txt'), 'utf8')).toBe('after')
    expect(await readdir(local.root)).toEqual(['a.txt'])
  })

  it('a lock left by a killed holder is taken over by the next edit at once', async () => {
    await writeFile(join(local.root, 'a.txt'), 'one')
    const holder = await startHolder('a.txt')
    const exited = once(holder, 'exit')
    holder.kill('SIGKILL')
    await exited
    expect(await readdir(local.root)).toContain('.a.txt.dsh-lock')
    const started = Date.now()
    await local.fs.editText(await local.fs.resolve('a.txt'), { oldString: 'one', newString: 'two' })
    expect(Date.now() - started).toBeLessThan(1000)
    expect(await readFile(join(local.root, 'a.txt'), 'utf8')).toBe('two')
    expect(await readdir(local.root)).toEqual(['a.txt'])
  })

  it('a lock naming no process is left over and taken over', async () => {
    await writeFile(join(local.root, '.a.txt.dsh-lock'), 'not a pid')
    await local.fs.writeText(await local.fs.resolve('a.txt'), 'new')
    expect(await readdir(local.root)).toEqual(['a.txt'])
  })
})
