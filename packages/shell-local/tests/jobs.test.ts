import { execFile } from 'node:child_process'
import { rm } from 'node:fs/promises'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { isShellError } from '@deepseek-ai/dsh-shell'
import { bundleDriver } from './helpers/child/bundle'
import { groupMembers, tempDir, waitUntil } from './helpers/os'
import { loadShell } from './helpers/shell'
import type { LoadedShell } from './helpers/shell'

let loaded: LoadedShell | undefined
let cwd: string

beforeAll(async () => {
  cwd = await tempDir()
})

afterEach(async () => {
  await loaded?.dispose()
  loaded = undefined
})

function failureCode(work: () => unknown): string | undefined {
  try {
    work()
  } catch (error) {
    return isShellError(error) ? error.code : 'not a ShellError'
  }
  return undefined
}

describe('background jobs', () => {
  it('gives the output since the last read and the exit once it ended', async () => {
    loaded = await loadShell()
    const { jobs } = loaded.shell
    const job = jobs.run('j1', { command: 'echo one; sleep 0.3; echo two', cwd })
    expect(await waitUntil(() => jobs.read('j1').output === 'one\n' || false, 2000)).toBe(true)
    await job.exited
    const last = jobs.read('j1')
    expect(last.output).toBe('two\n')
    expect(last.exit).toMatchObject({ exitCode: 0 })
    expect(jobs.read('j1')).toMatchObject({ output: '', exit: { exitCode: 0 } })
  })

  it('reports no exit while the job runs', async () => {
    loaded = await loadShell()
    loaded.shell.jobs.run('j2', { command: 'sleep 30', cwd })
    expect(loaded.shell.jobs.read('j2').exit).toBeUndefined()
  })

  it('refuses a second job with the same id', async () => {
    loaded = await loadShell()
    loaded.shell.jobs.run('j3', { command: 'sleep 30', cwd })
    const { jobs } = loaded.shell
    expect(failureCode(() => jobs.run('j3', { command: 'true', cwd }))).toBe('SHELL_JOB_EXISTS')
  })

  it('ends the process group of a killed job', async () => {
    loaded = await loadShell()
    const job = loaded.shell.jobs.run('j4', { command: '(sleep 211 &); sleep 212', cwd })
    const exit = await loaded.shell.jobs.kill('j4')
    expect(exit.aborted).toBe(true)
    expect(groupMembers(job.pid)).toEqual([])
  })

  it('ends and forgets the jobs of a session when its lifetime ends', async () => {
    loaded = await loadShell()
    const session = new AbortController()
    const { jobs } = loaded.shell
    const job = jobs.run('j5', { command: '(sleep 213 &); sleep 214', cwd }, session.signal)
    session.abort()
    expect((await job.exited).aborted).toBe(true)
    expect(groupMembers(job.pid)).toEqual([])
    expect(failureCode(() => jobs.read('j5'))).toBe('SHELL_JOB_NOT_FOUND')
  })

  it('ends every job when the provider is disposed', async () => {
    loaded = await loadShell()
    const job = loaded.shell.jobs.run('j6', { command: '(sleep 215 &); sleep 216', cwd })
    await loaded.dispose()
    loaded = undefined
    expect((await job.exited).aborted).toBe(true)
    expect(groupMembers(job.pid)).toEqual([])
  })

  it('names an unknown job with SHELL_JOB_NOT_FOUND', async () => {
    loaded = await loadShell()
    const { jobs } = loaded.shell
    expect(failureCode(() => jobs.read('nope'))).toBe('SHELL_JOB_NOT_FOUND')
  })
})

describe('the agent process ending', () => {
  let driver: { script: string; directory: string }

  beforeAll(async () => {
    driver = await bundleDriver()
  }, 60_000)

  afterAll(async () => {
    await rm(driver.directory, { recursive: true, force: true })
  })

  for (const how of ['exit', 'throw']) {
    it(`leaves no job process behind when the process ends by ${how}`, async () => {
      const run = promisify(execFile)
      const result = await run(process.execPath, [driver.script, how], { cwd }).catch(
        (error: { stdout: string }) => error,
      )
      const pgid = Number(result.stdout.trim())
      expect(pgid).toBeGreaterThan(0)
      expect(await waitUntil(() => groupMembers(pgid).length === 0, 2000)).toBe(true)
    })
  }
})
