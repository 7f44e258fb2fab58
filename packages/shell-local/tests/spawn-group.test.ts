// spawnGroup's two hooks for a wrapping program: a report pipe at fd 3, and who decides
// whether the members an exited leader left behind are ended.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { spawnGroup } from '../src/index'
import { alive, groupMembers, tempDir, waitUntil } from './helpers/os'

let cwd: string
const strays: number[] = []

beforeAll(async () => {
  cwd = await tempDir()
})

afterEach(() => {
  for (const pgid of strays.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
})

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' }

describe('spawnGroup', () => {
  it('hands on what the program writes to fd 3, apart from its output', async () => {
    const reported: string[] = []
    let output = ''
    const started = spawnGroup(['bash', '-c', 'echo report >&3; echo out'], {
      cwd,
      env,
      onReport: (chunk) => reported.push(chunk.toString('utf8')),
      onOutput: (text) => (output += text),
    })
    expect((await started.exited).exitCode).toBe(0)
    expect(reported.join('')).toBe('report\n')
    expect(output).toBe('out\n')
  })

  it('gives the program no fd 3 without onReport', async () => {
    let output = ''
    const started = spawnGroup(['bash', '-c', 'echo x >&3 || echo no-fd-3'], {
      cwd,
      env,
      onOutput: (text) => (output += text),
    })
    await started.exited
    expect(output).toContain('no-fd-3')
  })

  it('leaves a stray member running when leftBehind says the group ends by itself', async () => {
    const asked: number[] = []
    const started = spawnGroup(['bash', '-c', '(sleep 30 >/dev/null 2>&1 &)'], {
      cwd,
      env,
      leftBehind: (pgid) => {
        asked.push(pgid)
        return false
      },
    })
    strays.push(started.pid)
    const exit = await started.exited
    expect(exit).toMatchObject({ exitCode: 0, aborted: false })
    expect(asked).toEqual([started.pid])
    const [sleeper] = groupMembers(started.pid)
    expect(sleeper).toBeDefined()
    expect(alive(sleeper!)).toBe(true)
  })

  it('ends the stray member when leftBehind says it still runs', async () => {
    const started = spawnGroup(['bash', '-c', '(sleep 30 >/dev/null 2>&1 &)'], {
      cwd,
      env,
      killGraceMs: 200,
      leftBehind: () => true,
    })
    strays.push(started.pid)
    await started.exited
    expect(await waitUntil(() => groupMembers(started.pid).length === 0)).toBe(true)
  })
})
