// The ways out of the sandbox a hostile command tried, each closed: the agent's processes seen
// and written through (`/proc/<pid>/root`, `/proc/<pid>/environ`) or killed, a `setsid` child
// outliving its command, its job or the agent, a hook or `core.fsmonitor` planted in `.git`
// (and the other repository control folders) for the person's next `git` to run, and a unix
// socket outside the roots connected to. Real bwrap, real processes, checked with the OS.
import { execFileSync, spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import type { Server } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { ShellConfinement } from '@deepseek-ai/dsh-shell'
import { runCollect, waitUntil } from './helpers/os'
import { describeWithSandbox } from '../src/testing'
import { sandboxStack } from './helpers/stack'
import type { SandboxStack } from './helpers/stack'

let stack: SandboxStack
const outsiders: ChildProcess[] = []
const markers: string[] = []

beforeEach(async () => {
  stack = await sandboxStack()
})

afterEach(async () => {
  for (const child of outsiders.splice(0)) child.kill('SIGKILL')
  // A survivor (with the sandbox broken) must not outlive the test either.
  for (const pid of markers.splice(0).flatMap(processesWith)) process.kill(pid, 'SIGKILL')
  await stack.cleanup()
})

const workspace = (): ShellConfinement => ({ writable: [stack.root], network: false })

async function confined(command: string, confine: ShellConfinement = workspace()) {
  return runCollect(stack.shell, { command, cwd: stack.root, confine })
}

/** A process of the person's outside the sandbox, with `env` in its environment. */
function outsider(env: Record<string, string> = {}): ChildProcess & { pid: number } {
  const child = spawn('sleep', ['1000'], { env: { ...process.env, ...env }, stdio: 'ignore' })
  outsiders.push(child)
  if (child.pid === undefined) throw new Error('sleep did not start')
  return child as ChildProcess & { pid: number }
}

/** The pids of live processes named `marker` (their argv[0]). */
function processesWith(marker: string): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').startsWith(marker))
        found.push(Number(entry))
    } catch {
      // ended while we looked
    }
  }
  return found
}

/** A command line that starts a `setsid` sleep named `marker` and leaves it running. */
function survivor(marker: string): string {
  markers.push(marker)
  return `setsid bash -c 'exec -a ${marker} sleep 1000' &`
}

describeWithSandbox('the agent’s processes, from inside', () => {
  it('are not there: /proc shows only the sandbox’s own processes', async () => {
    const exit = await confined(`ls /proc | grep -c '^[0-9]'; echo ppid=$PPID`)
    expect(Number(exit.output.split('\n')[0])).toBeLessThan(5)
    expect(exit.output).toContain('ppid=1\n')
  })

  it('cannot be written through: /proc/<pid>/root/… of an outside process fails', async () => {
    const person = outsider()
    const target = join(stack.outside, 'through-proc')
    const exit = await confined(`echo x > /proc/${person.pid}/root${target}`)
    expect(exit.exitCode).not.toBe(0)
    expect(existsSync(target)).toBe(false)
  })

  it('cannot be read: an outside process’s environment is not shown', async () => {
    const person = outsider({ DSH_PROBE_API_KEY: 'the-secret-value' })
    const free = await runCollect(stack.shell, {
      command: `cat /proc/${person.pid}/environ`,
      cwd: stack.root,
    })
    expect(free.output).toContain('the-secret-value') // it is there to be read, unconfined
    const exit = await confined(`cat /proc/${person.pid}/environ; cat /proc/[0-9]*/environ`)
    expect(exit.output).not.toContain('the-secret-value')
    for (const sandbox of [workspace(), { writable: [], network: false }]) {
      const parent = await confined('cat /proc/$PPID/environ', sandbox)
      expect(parent.output).not.toContain('the-secret-value')
    }
  })

  it('cannot be killed', async () => {
    const person = outsider()
    const exit = await confined(`kill -9 ${person.pid}`)
    expect(exit.exitCode).not.toBe(0)
    expect(exit.output).toContain('No such process')
    expect(person.exitCode).toBeNull()
    expect(() => process.kill(person.pid, 0)).not.toThrow()
  })
})

describeWithSandbox('every process in the sandbox ends with it', () => {
  it('a setsid child ends when its command ends', async () => {
    const marker = `dsh-setsid-${process.pid}-${Date.now()}`
    const exit = await confined(`${survivor(marker)} sleep 0.2; echo done`)
    expect(exit.output).toContain('done')
    expect(await waitUntil(() => processesWith(marker).length === 0)).toBe(true)
  })

  it('a setsid child of a background job ends when the job’s lifetime ends', async () => {
    const marker = `dsh-job-${process.pid}-${Date.now()}`
    const lifetime = new AbortController()
    stack.shell.jobs.run(
      'job-1',
      { command: `${survivor(marker)} sleep 1000`, cwd: stack.root, confine: workspace() },
      lifetime.signal,
    )
    expect(await waitUntil(() => processesWith(marker).length === 1)).toBe(true)
    lifetime.abort()
    expect(await waitUntil(() => processesWith(marker).length === 0)).toBe(true)
  })

  it('a setsid child ends when the agent is killed', async () => {
    const marker = `dsh-agent-${process.pid}-${Date.now()}`
    const argv = ['bwrap', ...stack.shell.argsOf(workspace(), stack.root)]
    argv.push('bash', '-c', `${survivor(marker)} sleep 1000`)
    // A stand-in for the agent: it starts the sandbox as spawnGroup does, then is SIGKILLed.
    const agent = spawn(process.execPath, [
      '-e',
      `require('node:child_process').spawn(${JSON.stringify(argv[0])}, ${JSON.stringify(argv.slice(1))}, { detached: true, stdio: 'ignore' }); setInterval(() => {}, 1000)`,
    ])
    outsiders.push(agent)
    expect(await waitUntil(() => processesWith(marker).length === 1)).toBe(true)
    agent.kill('SIGKILL')
    expect(await waitUntil(() => processesWith(marker).length === 0)).toBe(true)
  })
})

describeWithSandbox('repository control folders in a root', () => {
  const git = (args: string[], cwd = stack.root) =>
    execFileSync('git', args, { cwd, encoding: 'utf8' })

  it('.git cannot take a hook, a core.fsmonitor or a commit; git status still works', async () => {
    git(['init', '-q', '.'])
    await writeFile(join(stack.root, 'a.txt'), 'a\n')
    const config = await readFile(join(stack.root, '.git/config'), 'utf8')
    const exit = await confined(
      `git config core.fsmonitor 'touch ${stack.outside}/ran'; ` +
        `echo 'touch ${stack.outside}/ran' > .git/hooks/pre-commit; ` +
        'rm -rf .git; mv .git moved; git status --short; git add a.txt',
    )
    expect(exit.output).toContain('?? a.txt')
    expect(exit.output).toContain('Read-only file system')
    expect(exit.output).toMatch(/rm: cannot remove '\.git\/description': Read-only file system/)
    expect(exit.output).toMatch(/mv: cannot move '\.git' to 'moved': Device or resource busy/)
    expect(await readFile(join(stack.root, '.git/config'), 'utf8')).toBe(config)
    expect(existsSync(join(stack.root, '.git/hooks/pre-commit'))).toBe(false)
    expect(git(['status', '--short'])).toBe('?? a.txt\n')
    expect(existsSync(join(stack.outside, 'ran'))).toBe(false)
  })

  it('the .hg, .svn and .jj folders of the cwd’s repository are read-only too', async () => {
    await mkdir(join(stack.root, 'sub/.hg'), { recursive: true })
    await mkdir(join(stack.root, '.svn'))
    await mkdir(join(stack.root, 'sub/.jj'))
    const exit = await runCollect(stack.shell, {
      command: 'echo x > .hg/hgrc; echo x > ../.svn/wc.db; echo x > .jj/f; echo x > f',
      cwd: join(stack.root, 'sub'),
      confine: workspace(),
    })
    expect(exit.output.match(/Read-only file system/g)).toHaveLength(3)
    expect(existsSync(join(stack.root, 'sub/.hg/hgrc'))).toBe(false)
    expect(existsSync(join(stack.root, '.svn/wc.db'))).toBe(false)
    expect(readFileSync(join(stack.root, 'sub/f'), 'utf8')).toBe('x\n')
  })

  it('a worktree’s .git file and the git dir it points to in another root stay as they are', async () => {
    const main = join(stack.root, 'main')
    const other = join(stack.outside, 'tree')
    await mkdir(main)
    git(['init', '-q', '.'], main)
    git(
      ['-c', 'user.name=d', '-c', 'user.email=d@e', 'commit', '-q', '--allow-empty', '-m', 'a'],
      main,
    )
    git(['worktree', 'add', '-q', other], main)
    const pointer = await readFile(join(other, '.git'), 'utf8')
    const both = { writable: [stack.root, stack.outside], network: false }
    const exit = await runCollect(stack.shell, {
      command: `echo 'gitdir: /elsewhere' > .git; echo x > ${main}/.git/worktrees/tree/HEAD; echo ok > f`,
      cwd: other,
      confine: both,
    })
    expect(exit.output.match(/Read-only file system|Device or resource busy/g)).toHaveLength(2)
    expect(await readFile(join(other, '.git'), 'utf8')).toBe(pointer)
    expect(readFileSync(join(other, 'f'), 'utf8')).toBe('ok\n')
  })
})

describeWithSandbox('unix sockets', () => {
  const servers: Server[] = []

  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((done) => server.close(done))
  })

  async function listen(path: string): Promise<void> {
    const server = createServer((socket) => socket.end('hello\n'))
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(path, resolve))
  }

  const connect = (path: string) =>
    `node -e "require('net').connect('${path}').on('data', (d) => process.stdout.write(d))` +
    `.on('error', (e) => { console.log(e.code); process.exitCode = 1 })"`

  it('outside the roots cannot be connected to; inside one they can', async () => {
    const out = join(stack.outside, 'agent.sock')
    const inside = join(stack.root, 'app.sock')
    await listen(out)
    await listen(inside)
    const exit = await confined(`${connect(out)}; ${connect(inside)}`)
    expect(exit.output).not.toContain('hello\nhello')
    expect(exit.output).toMatch(/^(ECONNREFUSED|ENOTSOCK|EACCES)\nhello\n$/)
  })
})
