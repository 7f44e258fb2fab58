// runShellContract: the behaviour every ctx.shell provider must have, written once as vitest
// suites: exit codes and signals, the cwd, a closed stdin, output as it comes, the whole process
// group ended on timeout, abort and kill (checked in /proc), the seam's errors, and background
// jobs. A provider's test file calls it with a factory of fresh providers; a provider that
// confines commands runs it too, since a confined command must behave the same inside.
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isShellError } from '../errors'
import type { Shell } from '../index'
import type { ShellRunOptions } from '../types'
import { groupMembers } from './os'

export interface ShellContractFixture {
  /** A provider whose SIGTERM-to-SIGKILL grace is short (the cases wait for it). */
  shell: Shell
  dispose(): Promise<void>
}

export type ShellContractFactory = () => Promise<ShellContractFixture>

export function runShellContract(label: string, make: ShellContractFactory): void {
  describe(`${label} shell contract`, () => {
    let fixture: ShellContractFixture
    let cwd: string
    beforeEach(async () => {
      fixture = await make()
      cwd = await realpath(await mkdtemp(join(tmpdir(), 'dsh-shell-contract-')))
    })
    afterEach(async () => {
      await fixture.dispose()
      await rm(cwd, { recursive: true, force: true })
    })

    async function run(options: Omit<ShellRunOptions, 'cwd' | 'onOutput'>) {
      let output = ''
      const started = fixture.shell.start({ cwd, ...options, onOutput: (text) => (output += text) })
      return { ...(await started.exited), output, pid: started.pid }
    }

    it('gives the output and the exit code in the cwd with a closed stdin', async () => {
      const exit = await run({ command: 'pwd; cat; echo err >&2; exit 5' })
      expect(exit).toMatchObject({ exitCode: 5, signal: null, timedOut: false, aborted: false })
      expect(exit.output).toBe(`${cwd}\nerr\n`)
    })

    it('names the signal that ended the shell', async () => {
      expect(await run({ command: 'kill -TERM $$' })).toMatchObject({
        exitCode: null,
        signal: 'SIGTERM',
      })
    })

    it('passes the added environment', async () => {
      expect(
        (await run({ command: 'echo "$DSH_CONTRACT"', env: { DSH_CONTRACT: 'x' } })).output,
      ).toBe('x\n')
    })

    it('ends the whole group on timeout', async () => {
      const exit = await run({ command: '(sleep 301 &); sleep 302', timeout: 200 })
      expect(exit).toMatchObject({ timedOut: true })
      expect(groupMembers(exit.pid)).toEqual([])
    })

    it('ends the whole group on abort', async () => {
      const controller = new AbortController()
      const started = fixture.shell.start({
        cwd,
        command: '(sleep 303 &); echo up; sleep 304',
        signal: controller.signal,
        onOutput: () => controller.abort(),
      })
      expect((await started.exited).aborted).toBe(true)
      expect(groupMembers(started.pid)).toEqual([])
    })

    it('refuses a cwd that is not a directory with SHELL_BAD_CWD', () => {
      let thrown: unknown
      try {
        fixture.shell.start({ command: 'true', cwd: join(cwd, 'absent') })
      } catch (error) {
        thrown = error
      }
      expect(isShellError(thrown, 'SHELL_BAD_CWD')).toBe(true)
    })

    it('runs a background job until it is killed, then forgets nothing of its end', async () => {
      const job = fixture.shell.jobs.run('contract-job', {
        command: '(sleep 305 &); sleep 306',
        cwd,
      })
      expect(fixture.shell.jobs.read('contract-job').exit).toBeUndefined()
      const exit = await fixture.shell.jobs.kill('contract-job')
      expect(exit.aborted).toBe(true)
      expect(groupMembers(job.pid)).toEqual([])
      expect(fixture.shell.jobs.read('contract-job').exit).toMatchObject({ aborted: true })
    })

    it('ends a job whose lifetime ends, and forgets it', async () => {
      const lifetime = new AbortController()
      const job = fixture.shell.jobs.run(
        'contract-life',
        { command: 'sleep 307', cwd },
        lifetime.signal,
      )
      lifetime.abort()
      expect((await job.exited).aborted).toBe(true)
      expect(fixture.shell.jobs.has('contract-life')).toBe(false)
    })
  })
}
