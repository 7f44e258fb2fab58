import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { isShellError } from '@deepseek-ai/dsh-shell'
import { groupMembers, tempDir } from './helpers/os'
import { loadShell, runCollect } from './helpers/shell'
import type { LoadedShell } from './helpers/shell'
import type LocalShell from '../src/index'
import type { LocalShellConfig } from '../src/index'

let loaded: LoadedShell | undefined
let shell: LocalShell
let cwd: string

async function load(config: LocalShellConfig = {}): Promise<LocalShell> {
  loaded = await loadShell(config)
  return loaded.shell
}

beforeAll(async () => {
  cwd = await tempDir()
})

afterEach(async () => {
  await loaded?.dispose()
  loaded = undefined
})

describe('exit status', () => {
  it('reports the exit code of the command', async () => {
    shell = await load()
    const exit = await runCollect(shell, { command: 'echo out; exit 3', cwd })
    expect(exit).toMatchObject({ exitCode: 3, signal: null, timedOut: false, aborted: false })
    expect(exit.output).toBe('out\n')
  })

  it('reports the signal that ended the shell', async () => {
    shell = await load()
    const exit = await runCollect(shell, { command: 'kill -USR1 $$', cwd })
    expect(exit).toMatchObject({ exitCode: null, signal: 'SIGUSR1' })
  })

  it('runs in the given cwd', async () => {
    shell = await load()
    expect((await runCollect(shell, { command: 'pwd', cwd })).output).toBe(`${cwd}\n`)
  })

  it('refuses a cwd that is not a directory with SHELL_BAD_CWD', async () => {
    shell = await load()
    let thrown: unknown
    try {
      shell.start({ command: 'true', cwd: join(cwd, 'absent') })
    } catch (error) {
      thrown = error
    }
    expect(isShellError(thrown, 'SHELL_BAD_CWD')).toBe(true)
  })

  it('refuses a shell program that does not exist with SHELL_SPAWN_FAILED', async () => {
    shell = await load({ bash: join(cwd, 'no-such-bash') })
    let thrown: unknown
    try {
      shell.start({ command: 'true', cwd })
    } catch (error) {
      thrown = error
    }
    expect(isShellError(thrown, 'SHELL_SPAWN_FAILED')).toBe(true)
  })
})

describe('input and output', () => {
  it('gives the command a closed stdin', async () => {
    shell = await load()
    const exit = await runCollect(shell, { command: 'cat; read line; echo "read $?"', cwd })
    expect(exit.output).toBe('read 1\n')
  })

  it('interleaves stdout and stderr in the order they came', async () => {
    shell = await load()
    const command = 'echo one; sleep 0.05; echo two >&2; sleep 0.05; echo three'
    expect((await runCollect(shell, { command, cwd })).output).toBe('one\ntwo\nthree\n')
  })

  it('never splits a character written in two pieces', async () => {
    shell = await load()
    const pieces: string[] = []
    const started = shell.start({
      command: "printf '\\xf0\\x9f'; sleep 0.1; printf '\\x98\\x80\\n'",
      cwd,
      onOutput: (text) => pieces.push(text),
    })
    await started.exited
    expect(pieces.join('')).toBe('😀\n')
    expect(pieces.some((piece) => piece.includes('\ufffd'))).toBe(false)
  })
})

describe('environment', () => {
  it('passes no API key and adds the plain-output settings', async () => {
    process.env.DEEPSEEK_API_KEY = 'sk-test-deepseek'
    process.env.OPENAI_API_KEY = 'sk-test-openai'
    process.env.DSH_API_KEY = 'sk-test-dsh'
    process.env.DSH_TEST_OTHER_KEY = 'sk-given-to-the-app'
    process.env.DSH_TEST_VISIBLE = 'visible'
    try {
      shell = await load({ secrets: ['sk-given-to-the-app'] })
      const { output } = await runCollect(shell, { command: 'env', cwd, env: { EXTRA: 'x' } })
      expect(output).not.toContain('sk-test-deepseek')
      expect(output).not.toContain('sk-test-openai')
      expect(output).not.toContain('sk-test-dsh')
      expect(output).not.toContain('sk-given-to-the-app')
      expect(output).toContain('DSH_TEST_VISIBLE=visible\n')
      for (const line of ['NO_COLOR=1', 'TERM=dumb', 'PAGER=cat', 'GIT_PAGER=cat'])
        expect(output).toContain(`${line}\n`)
      expect(output).toContain('GIT_TERMINAL_PROMPT=0\n')
      expect(output).toContain('EXTRA=x\n')
    } finally {
      delete process.env.DEEPSEEK_API_KEY
      delete process.env.OPENAI_API_KEY
      delete process.env.DSH_API_KEY
      delete process.env.DSH_TEST_OTHER_KEY
      delete process.env.DSH_TEST_VISIBLE
    }
  })

  it('leaves out every variable named like a secret, unless passed by name', async () => {
    const names = [
      'ANTHROPIC_API_KEY',
      'GITHUB_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_PROFILE',
      'DB_PASSWORD',
      'CLIENT_SECRET',
      'NPM_TOKEN',
    ]
    for (const name of names) process.env[name] = `value-of-${name}`
    process.env.DSH_TEST_HOLDS_THE_KEY = 'sk-the-agents-key'
    process.env.DSH_TEST_VISIBLE = 'visible'
    try {
      shell = await load({ secrets: ['sk-the-agents-key'], passEnv: ['NPM_TOKEN'] })
      const { output } = await runCollect(shell, { command: 'env', cwd })
      for (const name of names.filter((name) => name !== 'NPM_TOKEN')) {
        expect(output).not.toContain(`value-of-${name}`)
      }
      expect(output).toContain('NPM_TOKEN=value-of-NPM_TOKEN\n')
      expect(output).not.toContain('sk-the-agents-key')
      expect(output).toContain('DSH_TEST_VISIBLE=visible\n')
    } finally {
      for (const name of names) delete process.env[name]
      delete process.env.DSH_TEST_HOLDS_THE_KEY
      delete process.env.DSH_TEST_VISIBLE
    }
  })
})

describe('ending the process group', () => {
  const tree = '(sleep 201 &); sleep 202 & echo started; sleep 203'

  it('ends the whole group on timeout and leaves no survivor', async () => {
    shell = await load()
    const began = Date.now()
    const exit = await runCollect(shell, { command: tree, cwd, timeout: 300 })
    expect(exit).toMatchObject({ timedOut: true, aborted: false, signal: 'SIGTERM' })
    expect(exit.output).toBe('started\n')
    expect(Date.now() - began).toBeLessThan(5000)
    expect(groupMembers(exit.pid)).toEqual([])
  })

  it('ends the whole group when the signal fires and leaves no survivor', async () => {
    shell = await load()
    const controller = new AbortController()
    const started = shell.start({
      command: tree,
      cwd,
      signal: controller.signal,
      onOutput: () => controller.abort(),
    })
    const exit = await started.exited
    expect(exit).toMatchObject({ aborted: true, timedOut: false })
    expect(groupMembers(started.pid)).toEqual([])
  })

  it('kills a group that ignores SIGTERM after the grace period', async () => {
    shell = await load({ killGraceMs: 300 })
    const command = "trap '' TERM; (trap '' TERM; sleep 204) & echo ready; wait"
    const controller = new AbortController()
    const started = shell.start({
      command,
      cwd,
      signal: controller.signal,
      onOutput: () => controller.abort(),
    })
    const began = Date.now()
    const exit = await started.exited
    expect(exit).toMatchObject({ aborted: true, signal: 'SIGKILL' })
    expect(Date.now() - began).toBeGreaterThanOrEqual(250)
    expect(groupMembers(started.pid)).toEqual([])
  })

  it('ends what a finished command left running in the background', async () => {
    shell = await load()
    const exit = await runCollect(shell, { command: 'sleep 205 & echo left', cwd })
    expect(exit).toMatchObject({ exitCode: 0, aborted: false, timedOut: false })
    expect(groupMembers(exit.pid)).toEqual([])
  })

  it('ends every running command when the provider is disposed', async () => {
    shell = await load()
    const started = shell.start({ command: tree, cwd })
    await loaded?.dispose()
    const exit = await started.exited
    expect(exit.aborted).toBe(true)
    expect(groupMembers(started.pid)).toEqual([])
  })
})

describe('the warm-up', () => {
  it('runs in the given folder and settles; a folder that is not there does not reject it', async () => {
    shell = await load()
    await expect(shell.warmUp(cwd)).resolves.toBeUndefined()
    await expect(shell.warmUp(join(cwd, 'no-such-folder'))).resolves.toBeUndefined()
  })
})
