// SandboxShell with a real bwrap: what a confined command can and cannot write (the roots, a
// path outside, $HOME, a symlink out of a root, git's own files), the network switch, the
// read-only confinement, and process groups ended by a timeout and a cancel, checked with /proc.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import type { Server } from 'node:net'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ShellConfinement } from '@deepseek-ai/dsh-shell'
import { groupMembers, runCollect, waitUntil } from './helpers/os'
import { describeWithSandbox } from '../src/testing'
import { sandboxStack } from './helpers/stack'
import type { SandboxStack } from './helpers/stack'

describeWithSandbox('a confined command', () => {
  let stack: SandboxStack

  beforeEach(async () => {
    stack = await sandboxStack()
    expect(stack.shell.unavailable).toBeUndefined()
  })

  afterEach(async () => {
    await stack.cleanup()
  })

  function workspace(network = false): ShellConfinement {
    return { writable: [stack.root], network }
  }

  async function confined(command: string, confine: ShellConfinement = workspace()) {
    return runCollect(stack.shell, { command, cwd: stack.root, confine })
  }

  describe('writes in the workspace sandbox', () => {
    it('a write inside a root lands', async () => {
      const exit = await confined('echo x > inside.txt')
      expect(exit).toMatchObject({ exitCode: 0, confined: 'workspace' })
      expect(readFileSync(join(stack.root, 'inside.txt'), 'utf8')).toBe('x\n')
    })

    it('a write outside the roots fails with the read-only file system error', async () => {
      const target = join(stack.outside, 'f')
      const exit = await confined(`echo x > ${target}`)
      expect(exit.exitCode).not.toBe(0)
      expect(exit.output).toContain('Read-only file system')
      expect(existsSync(target)).toBe(false)
    })

    it('a write to the home folder fails', async () => {
      const target = join(homedir(), `dsh-sandbox-${process.pid}-${Date.now()}`)
      const exit = await confined(`touch ${target}`)
      expect(exit.output).toContain('Read-only file system')
      expect(existsSync(target)).toBe(false)
    })

    it('a write through a symlink in a root that points outside fails', async () => {
      await symlink(stack.outside, join(stack.root, 'out-link'))
      await symlink(join(stack.outside, 'file'), join(stack.root, 'file-link'))
      const exit = await confined('echo x > out-link/f; echo y > file-link')
      expect(exit.output.match(/Read-only file system/g)).toHaveLength(2)
      expect(existsSync(join(stack.outside, 'f'))).toBe(false)
      expect(existsSync(join(stack.outside, 'file'))).toBe(false)
    })

    it('a root given through a symlink is bound as its real path, and writable', async () => {
      const link = join(stack.outside, 'root-link')
      await symlink(stack.root, link)
      const args = stack.shell.argsOf({ writable: [link], network: false }, link)
      expect(args.join(' ')).toContain(`--bind ${stack.root} ${stack.root}`)
      expect(args).not.toContain(link)
      const exit = await runCollect(stack.shell, {
        command: 'echo x > via-link.txt',
        cwd: link,
        confine: { writable: [link], network: false },
      })
      expect(exit.exitCode).toBe(0)
      expect(existsSync(join(stack.root, 'via-link.txt'))).toBe(true)
    })

    it('git init, add and commit work inside a root', async () => {
      await writeFile(join(stack.root, 'a.txt'), 'a\n')
      const exit = await confined(
        'git init -q . && git add a.txt && ' +
          'git -c user.name=dsh -c user.email=dsh@example.com commit -qm first && git log --oneline',
      )
      expect(exit.output).toContain('first')
      expect(exit.exitCode).toBe(0)
      const log = execFileSync('git', ['log', '--format=%s'], { cwd: stack.root, encoding: 'utf8' })
      expect(log.trim()).toBe('first')
    })

    it('/tmp keeps: what one command writes there the next reads, and so does the host', async () => {
      const path = join('/tmp', `dsh-sandbox-tmp-${process.pid}-${Date.now()}`)
      try {
        expect(await confined(`echo x > ${path}`)).toMatchObject({ exitCode: 0 })
        expect(await confined(`cat ${path}`)).toMatchObject({ exitCode: 0, output: 'x\n' })
        expect(readFileSync(path, 'utf8')).toBe('x\n')
      } finally {
        await rm(path, { force: true })
      }
    })

    it('a command asked for no confinement runs as the local shell runs it', async () => {
      const target = join(stack.outside, 'free.txt')
      const exit = await runCollect(stack.shell, { command: `echo x > ${target}`, cwd: stack.root })
      expect(exit.exitCode).toBe(0)
      expect(exit.confined).toBeUndefined()
      expect(existsSync(target)).toBe(true)
    })
  })

  describe('what lies under /tmp', () => {
    let under: string
    let home: string | undefined

    beforeEach(async () => {
      under = await mkdtemp(join(tmpdir(), 'dsh-sandbox-under-'))
      home = process.env.HOME
    })

    afterEach(async () => {
      process.env.HOME = home
      await rm(under, { recursive: true, force: true })
    })

    it('a home folder under /tmp stays read-only, and a root inside it writable', async () => {
      process.env.HOME = join(under, 'home')
      const root = join(under, 'home/project')
      await mkdir(root, { recursive: true })
      const exit = await runCollect(stack.shell, {
        command: `touch ${under}/home/dotfile; touch ${root}/made; echo x > ${under}/beside`,
        cwd: root,
        confine: { writable: [root], network: false },
      })
      expect(exit.output.match(/Read-only file system/g)).toHaveLength(1)
      expect(existsSync(join(under, 'home/dotfile'))).toBe(false)
      expect(existsSync(join(root, 'made'))).toBe(true)
      expect(existsSync(join(under, 'beside'))).toBe(true)
    })

    it('a visible folder (spilled output) under /tmp is readable and not writable', async () => {
      await writeFile(join(under, 'out.log'), 'spilled\n')
      const visible = await sandboxStack({ shell: { visible: [under] } })
      try {
        const exit = await runCollect(visible.shell, {
          command: `cat ${under}/out.log; echo x > ${under}/new`,
          cwd: visible.root,
          confine: { writable: [visible.root], network: false },
        })
        expect(exit.output).toContain('spilled\n')
        expect(exit.output).toContain('Read-only file system')
        expect(existsSync(join(under, 'new'))).toBe(false)
      } finally {
        await visible.cleanup()
      }
    })

    it('in the read-only sandbox /tmp is seen as it is and kept read-only; $TMPDIR is scratch', async () => {
      process.env.HOME = join(under, 'home')
      const root = join(under, 'root')
      await mkdir(join(under, 'home'))
      await mkdir(root)
      await writeFile(join(under, 'left.log'), 'left by an earlier command\n')
      await writeFile(join(root, 'kept.txt'), 'kept\n')
      const scratch = join(under, 'scratch')
      const exit = await runCollect(stack.shell, {
        command:
          `cat kept.txt; cat ${under}/left.log; echo x > kept.txt; touch ${under}/home/f; ` +
          `echo t > ${scratch}; f=$(mktemp) && echo s > "$f" && cat "$f" && echo "in $TMPDIR"`,
        cwd: root,
        confine: { writable: [], network: false },
      })
      expect(exit.output).toContain('kept\n')
      expect(exit.output).toContain('left by an earlier command\n')
      expect(exit.output.match(/Read-only file system/g)).toHaveLength(3)
      expect(exit.output).toContain('s\nin /dev/shm\n')
      expect(readFileSync(join(root, 'kept.txt'), 'utf8')).toBe('kept\n')
      expect(existsSync(scratch)).toBe(false)
      expect(existsSync(join(under, 'home/f'))).toBe(false)
    })
  })

  describe('the read-only sandbox', () => {
    it('cannot write the roots, and still reads them', async () => {
      await writeFile(join(stack.root, 'kept.txt'), 'kept\n')
      const exit = await confined('cat kept.txt; echo x > new.txt; echo y >> kept.txt', {
        writable: [],
        network: false,
      })
      expect(exit.confined).toBe('read-only')
      expect(exit.output).toContain('kept\n')
      expect(exit.output.match(/Read-only file system/g)).toHaveLength(2)
      expect(existsSync(join(stack.root, 'new.txt'))).toBe(false)
      expect(readFileSync(join(stack.root, 'kept.txt'), 'utf8')).toBe('kept\n')
    })
  })

  describe('the network', () => {
    let server: Server
    let port: number

    beforeEach(async () => {
      server = createServer((socket) => socket.end('hello\n'))
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      port = (server.address() as { port: number }).port
    })

    afterEach(async () => {
      await new Promise((resolve) => server.close(resolve))
    })

    const connect = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`

    it('is off by default: a connect to a server on 127.0.0.1 fails', async () => {
      const exit = await confined(connect())
      expect(exit.exitCode).not.toBe(0)
      expect(exit.output).not.toContain('hello')
    })

    it('is on when the confinement allows it', async () => {
      const exit = await confined(connect(), workspace(true))
      expect(exit).toMatchObject({ exitCode: 0, output: 'hello\n' })
    })
  })

  describe('process groups in the sandbox', () => {
    it('a timeout ends the sandbox and every process in it', async () => {
      await mkdir(join(stack.root, 'd'))
      const started = stack.shell.start({
        command: '(sleep 100 &); sleep 100',
        cwd: stack.root,
        timeout: 500,
        confine: workspace(),
      })
      expect(await waitUntil(() => groupMembers(started.pid).length >= 3)).toBe(true)
      const exit = await started.exited
      expect(exit).toMatchObject({ timedOut: true, confined: 'workspace' })
      expect(await waitUntil(() => groupMembers(started.pid).length === 0)).toBe(true)
    })

    it('a cancel ends the sandbox and every process in it', async () => {
      const controller = new AbortController()
      const started = stack.shell.start({
        command: '(sleep 100 &); sleep 100',
        cwd: stack.root,
        signal: controller.signal,
        confine: workspace(),
      })
      expect(await waitUntil(() => groupMembers(started.pid).length >= 3)).toBe(true)
      controller.abort()
      const exit = await started.exited
      expect(exit.aborted).toBe(true)
      expect(await waitUntil(() => groupMembers(started.pid).length === 0)).toBe(true)
    })
  })
})
