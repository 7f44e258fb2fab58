// The one check of whether a sandbox works here (made when first needed, not when the provider
// starts), and the arguments a confined command gets.
import { existsSync, readFileSync } from 'node:fs'
import { chmod, mkdtemp, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { bwrapArgs, probeSandbox, probeSandboxAsync } from '../src/index'
import { describeWithSandbox, hidesSandbox, itWithSandbox, mustNotSkip } from '../src/testing'
import { sandboxStack, testsDir } from './helpers/stack'
import type { SandboxStack } from './helpers/stack'

let stack: SandboxStack | undefined

afterEach(async () => {
  await stack?.cleanup()
  stack = undefined
})

/** A `bwrap` that notes the program each run of it starts (its last argument), then runs it. */
async function notingBwrap(): Promise<{ bwrap: string; started: () => string[] }> {
  const dir = await mkdtemp(join(await testsDir(), 'bwrap-'))
  const bwrap = join(dir, 'bwrap')
  const notes = join(dir, 'started.txt')
  const script = `#!/bin/sh\nfor last; do :; done\nprintf '%s\\n' "$last" >> '${notes}'\nexec bwrap "$@"\n`
  await writeFile(bwrap, script)
  await chmod(bwrap, 0o755)
  const started = () =>
    existsSync(notes) ? readFileSync(notes, 'utf8').split('\n').filter(Boolean) : []
  return { bwrap, started }
}

describe('the sandbox check', () => {
  itWithSandbox('finds the installed bwrap working', () => {
    expect(probeSandbox('bwrap')).toBeUndefined()
  })

  it('says bubblewrap is not installed when the program is missing', () => {
    expect(probeSandbox('/nonexistent/bwrap')).toBe(
      'bubblewrap is not installed ("/nonexistent/bwrap" was not found)',
    )
  })

  it('says bwrap cannot create a sandbox when it fails', () => {
    expect(probeSandbox('false')).toMatch(/^"false" cannot create a sandbox here \(exit code 1;/)
  })

  it('says the sandbox needs Linux elsewhere', () => {
    expect(probeSandbox('bwrap', 'darwin')).toBe('the sandbox needs Linux (this is darwin)')
  })
})

describe('the bwrap arguments', () => {
  const plan = {
    writable: ['/w/a'],
    temp: ['/tmp'],
    readOnly: ['/tmp/home', '/tmp/home/w/b'],
    control: ['/w/a/.git'],
    sockets: ['/run/user/0/bus'],
    network: false,
    cwd: '/w/a',
  }

  it('lay the binds shallowest first, then the control folders and the sockets', () => {
    expect(bwrapArgs(plan).join(' ')).toBe(
      '--ro-bind / / --dev /dev --unshare-pid --proc /proc --ro-bind /proc/sys /proc/sys ' +
        '--unshare-uts --unshare-ipc --unshare-cgroup-try --cap-drop ALL --bind /tmp /tmp ' +
        '--ro-bind /tmp/home /tmp/home --bind /w/a /w/a --ro-bind /tmp/home/w/b /tmp/home/w/b ' +
        '--ro-bind /w/a/.git /w/a/.git --ro-bind /dev/null /run/user/0/bus ' +
        '--unshare-net --die-with-parent --chdir /w/a --',
    )
  })

  it('keep a root inside the home folder writable, and bind no temp folder when none is given', () => {
    const args = bwrapArgs({ ...plan, writable: ['/tmp/home/w/a'], readOnly: ['/tmp/home'] })
    expect(args.join(' ')).toContain(
      '--bind /tmp /tmp --ro-bind /tmp/home /tmp/home --bind /tmp/home/w/a /tmp/home/w/a',
    )
    const readOnly = bwrapArgs({ ...plan, writable: [], temp: [], readOnly: [] })
    expect(readOnly).not.toContain('--bind')
    expect(readOnly).not.toContain('--tmpfs')
  })

  it('keep the network when it is allowed, and never start a new session', () => {
    const args = bwrapArgs({ ...plan, writable: [], network: true })
    expect(args).not.toContain('--unshare-net')
    expect(args).not.toContain('--new-session')
    expect(args).toContain('--unshare-pid')
  })
})

describeWithSandbox('when the check is made', () => {
  it('starting the provider runs no bwrap; the first confined command checks once', async () => {
    const { bwrap, started } = await notingBwrap()
    stack = await sandboxStack({ shell: { bwrap } })
    expect(started()).toEqual([])
    await stack.call('bash', { command: 'touch a.txt' }, { mode: 'auto-edit' })
    await stack.call('bash', { command: 'touch b.txt' }, { mode: 'auto-edit' })
    expect(started()).toEqual(['true', 'touch a.txt', 'touch b.txt'])
    expect(stack.shell.unavailable).toBeUndefined()
    expect(existsSync(join(stack.root, 'b.txt'))).toBe(true)
    expect(stack.asked).toEqual([])
  })

  it('the warm-up checks ahead and runs true in the read-only sandbox; a command then runs alone', async () => {
    const { bwrap, started } = await notingBwrap()
    stack = await sandboxStack({ shell: { bwrap } })
    await stack.shell.warmUp(stack.root)
    expect(started()).toEqual(['true', 'true'])
    await stack.call('bash', { command: 'touch a.txt' }, { mode: 'auto-edit' })
    expect(started()).toEqual(['true', 'true', 'touch a.txt'])
    expect(existsSync(join(stack.root, 'a.txt'))).toBe(true)
  })

  it('the warm-up never rejects, and leaves the check’s answer for the commands', async () => {
    stack = await sandboxStack({ shell: { bwrap: '/nonexistent/bwrap' } })
    await expect(stack.shell.warmUp(join(stack.root, 'no-such-folder'))).resolves.toBeUndefined()
    expect(stack.shell.unavailable).toBe(
      'bubblewrap is not installed ("/nonexistent/bwrap" was not found)',
    )
  })
})

describe('the check made without blocking', () => {
  itWithSandbox('finds the installed bwrap working', async () => {
    await expect(probeSandboxAsync('bwrap')).resolves.toBeUndefined()
  })

  it('gives the same answers as the blocking check', async () => {
    for (const bwrap of ['/nonexistent/bwrap', '/bin/false']) {
      expect(await probeSandboxAsync(bwrap)).toBe(probeSandbox(bwrap))
    }
    expect(await probeSandboxAsync('bwrap', 'darwin')).toBe(probeSandbox('bwrap', 'darwin'))
  })
})

describe('the test guard', () => {
  it('never skips under CI, except in a run that hides bubblewrap on purpose', () => {
    expect(mustNotSkip({ CI: 'true' })).toBe(true)
    expect(mustNotSkip({ CI: '1' })).toBe(true)
    expect(mustNotSkip({})).toBe(false)
    expect(mustNotSkip({ CI: 'true', DSH_TEST_NO_SANDBOX: '1' })).toBe(false)
    expect(hidesSandbox({ DSH_TEST_NO_SANDBOX: '1' })).toBe(true)
  })
})
