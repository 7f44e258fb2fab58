// A confined command's processes and memory are bounded: a fork bomb stops at the process
// limit and a memory bomb at the memory limit, each in a moment, with small limits so a
// 2-core machine is not swamped. With cgroups where the agent may make them (root here, and
// in CI), else with rlimits (which bound a root's processes not at all: the kernel exempts it).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CommandLimiter } from '../src/limits'
import { describeWithSandbox } from '../src/testing'
import { runCollect } from './helpers/os'
import { sandboxStack } from './helpers/stack'
import type { SandboxStack } from './helpers/stack'

let stack: SandboxStack

beforeEach(async () => {
  stack = await sandboxStack({ shell: { limits: { processes: 24, memoryBytes: 48 * 2 ** 20 } } })
})

afterEach(async () => {
  await stack.cleanup()
})

const confined = (command: string) =>
  runCollect(stack.shell, {
    command,
    cwd: stack.root,
    confine: { writable: [stack.root], network: false },
    timeout: 20_000,
  })

describeWithSandbox('a confined command’s resources', () => {
  it('a fork bomb stops at the process limit', async () => {
    // dash gives up at the first fork refused, so the run is bounded in time.
    const exit = await confined(
      "sh -c 'i=0; while [ $i -lt 200 ]; do sleep 30 & i=$((i+1)); done; echo all-started'",
    )
    expect(exit.output).toMatch(/Cannot fork|Resource temporarily unavailable/)
    expect(exit.output).not.toContain('all-started')
  })

  it('a memory bomb stops at the memory limit', async () => {
    // tail keeps a whole line, and /dev/zero has no newline: it grows until stopped.
    const exit = await confined(
      'head -c 200000000 /dev/zero | tail | wc -c; echo "tail ended: ${PIPESTATUS[1]}"',
    )
    expect(exit.output).not.toContain('tail ended: 0')
    expect(exit.output).toMatch(/tail ended: (137|1)\b/)
  })

  it('leaves no cgroup of its own behind once the shell is disposed', async () => {
    const kind = stack.shell.limiter.kind
    await confined('true')
    await stack.cleanup()
    const parents = ['pids/', 'memory/', ''].map((c) => `/sys/fs/cgroup/${c}dsh-${process.pid}`)
    if (kind === 'cgroup') expect(parents.filter((path) => existsSync(path))).toEqual([])
    stack = await sandboxStack()
  })
})

describe('without cgroups', () => {
  const limiter = new CommandLimiter({ processes: 24, memoryBytes: 48 * 2 ** 20 }, '/nonexistent')

  it('rlimits bound each process’s memory', () => {
    expect(limiter.kind).toBe('rlimit')
    const { argv } = limiter.wrap(['bash', '-c', 'head -c 200000000 /dev/zero | tail | wc -c'])
    expect(argv.slice(1, 2)).toEqual([`--as=${48 * 2 ** 20}`])
    const run = spawnSync(argv[0] as string, argv.slice(1), { encoding: 'utf8', timeout: 20_000 })
    expect(run.stderr).toMatch(/memory exhausted|Cannot allocate memory/)
  })
})
