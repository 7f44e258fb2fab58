// The sandbox's init: its pid read from bwrap's report however the bytes are split, whether it
// has ended told from one read of /proc, and a confined command's end awaited through it, with
// no scan of every process in /proc.
import { spawn } from 'node:child_process'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { initEnded, SandboxInit } from '../src/init'
import { describeWithSandbox } from '../src/testing'
import { groupMembers, runCollect } from './helpers/os'
import { sandboxStack } from './helpers/stack'
import type { SandboxStack } from './helpers/stack'

const scans = vi.hoisted(() => ({ count: 0 }))

vi.mock('@deepseek-ai/dsh-shell-local', async (original) => {
  const actual = await original<typeof import('@deepseek-ai/dsh-shell-local')>()
  return {
    ...actual,
    groupAlive: (pgid: number) => {
      scans.count++
      return actual.groupAlive(pgid)
    },
  }
})

describe("bwrap's report", () => {
  it('gives the init pid, split across chunks', () => {
    const init = new SandboxInit()
    init.take(Buffer.from('{\n    "child-'))
    expect(init.pid).toBeUndefined()
    init.take(Buffer.from('pid": 4321,\n    "mnt-namespace": 4026532173\n}\n'))
    expect(init.pid).toBe(4321)
  })

  it('leaves the pid unknown when the report names none', () => {
    const init = new SandboxInit()
    init.take(Buffer.from('{ "mnt-namespace": 1 }\n'))
    expect(init.pid).toBeUndefined()
  })
})

describe('initEnded', () => {
  it('is false while the process runs in the group, true once it is reaped', async () => {
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' })
    const pid = child.pid!
    const gone = new Promise((resolve) => child.on('exit', resolve))
    expect(initEnded(pid, pid)).toBe(false)
    // A pid in another group is not the init asked about (a reused pid).
    expect(initEnded(pid, pid + 1)).toBe(true)
    child.kill('SIGKILL')
    await gone
    await vi.waitFor(() => expect(initEnded(pid, pid)).toBe(true))
  })
})

describeWithSandbox('a confined command’s end', () => {
  let stack: SandboxStack

  beforeEach(async () => {
    stack = await sandboxStack()
    expect(stack.shell.unavailable).toBeUndefined()
  })

  afterEach(async () => {
    await stack.cleanup()
  })

  it('is reported once nothing of the sandbox runs, without scanning /proc', async () => {
    scans.count = 0
    const confine = { writable: [stack.root], network: false }
    for (let i = 0; i < 5; i++) {
      const started = stack.shell.start({ command: 'sleep 0.01 & true', cwd: stack.root, confine })
      const exit = await started.exited
      expect(exit).toMatchObject({ exitCode: 0, confined: 'workspace' })
      expect(groupMembers(started.pid)).toEqual([])
    }
    expect(scans.count).toBe(0)
  })

  it('still reports the output and the exit code', async () => {
    const confine = { writable: [stack.root], network: false }
    const exit = await runCollect(stack.shell, {
      command: 'echo hi; exit 4',
      cwd: stack.root,
      confine,
    })
    expect(exit).toMatchObject({ exitCode: 4, output: 'hi\n', confined: 'workspace' })
  })
})
