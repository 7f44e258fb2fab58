// Read-only commands over a real workspace, real git and the real bash tool in `ask` (and
// unconfined `auto-edit`): what the disk says decides whether they run unasked. A link's `..`
// is taken physically, a FIFO is asked, a program PATH finds in the workspace is asked, git
// reads an operand outside as a file, and no program a repository's git config names runs.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { shellStack, textOf } from './helpers/stack'
import type { ShellStack } from './helpers/stack'

let stack: ShellStack
let outside: string

beforeEach(async () => {
  stack = await shellStack()
  outside = await realpath(await mkdtemp(join(tmpdir(), 'dsh-outside-')))
  stack.reply = 'reject_once'
})

afterEach(async () => {
  vi.unstubAllEnvs()
  await stack.cleanup()
  await rm(outside, { recursive: true, force: true })
})

type Outcome = 'ran' | 'asked'

/** How `command` went in `mode`: run unasked (with its output), or asked and rejected. */
async function run(command: string, mode = 'ask'): Promise<{ outcome: Outcome; text: string }> {
  const before = stack.asked.length
  const result = await stack.call('bash', { command }, { mode })
  const asked = stack.asked.length > before
  if (asked) expect(result.error?.code).toBe('PERMISSION_REJECTED')
  return { outcome: asked ? 'asked' : 'ran', text: asked ? '' : textOf(result) }
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'ignore' })
}

/** A repository in the workspace with one commit of `a.txt`. */
async function repository(): Promise<void> {
  git(stack.root, 'init', '-q')
  git(stack.root, 'config', 'user.email', 'a@example.com')
  git(stack.root, 'config', 'user.name', 'a')
  await writeFile(join(stack.root, 'a.txt'), 'one\n')
  await writeFile(join(stack.root, '.gitattributes'), '*.txt diff=conv\n')
  git(stack.root, 'add', '-A')
  git(stack.root, 'commit', '-qm', 'first')
}

describe('paths as the kernel resolves them', () => {
  it('a link followed by .. is judged where the kernel takes it', async () => {
    await mkdir(join(outside, 'dir'))
    await writeFile(join(outside, 'secret.txt'), 'outside secret\n')
    await symlink(join(outside, 'dir'), join(stack.root, 'link'))
    const { outcome } = await run('cat link/../secret.txt')
    expect(outcome).toBe('asked')
  })

  it('a link followed by .. that stays inside runs unasked', async () => {
    await mkdir(join(stack.root, 'sub', 'deep'), { recursive: true })
    await writeFile(join(stack.root, 'sub', 'x.txt'), 'inside\n')
    await symlink(join(stack.root, 'sub', 'deep'), join(stack.root, 'here'))
    expect(await run('cat here/../x.txt')).toEqual({ outcome: 'ran', text: 'inside\nexit code 0' })
  })

  it('a glob that matches a link out of the workspace is a read outside', async () => {
    await writeFile(join(outside, 'secret.txt'), 'outside secret\n')
    await mkdir(join(stack.root, 'notes'))
    await writeFile(join(stack.root, 'notes', 'a.txt'), 'a\n')
    expect((await run('cat notes/*')).outcome).toBe('ran')
    await symlink(join(outside, 'secret.txt'), join(stack.root, 'notes', 'b.txt'))
    expect((await run('cat notes/*')).outcome).toBe('asked')
    expect((await run('cat notes/../notes/*.txt')).outcome).toBe('asked')
    expect((await run('echo notes/*')).outcome).toBe('ran')
  })

  it('git diff of a file outside the repository is a read outside', async () => {
    await repository()
    await writeFile(join(outside, 'secret.txt'), 'outside secret\n')
    expect((await run(`git diff ${outside}/secret.txt /dev/null`)).outcome).toBe('asked')
    expect((await run('git diff HEAD -- a.txt')).outcome).toBe('ran')
  })

  it('a recursive grep that follows links is asked, a plain one skips them', async () => {
    await writeFile(join(outside, 'secret.txt'), 'needle outside\n')
    await symlink(outside, join(stack.root, 'out'))
    expect((await run('grep -R needle .')).outcome).toBe('asked')
    const plain = await run('grep -r needle . || true')
    expect(plain).toEqual({ outcome: 'ran', text: 'exit code 0' })
  })
})

describe('files that are not regular', () => {
  beforeEach(() => {
    execFileSync('mkfifo', [join(stack.root, 'pipe')])
  })

  it('a fifo named by a read is asked', async () => {
    expect((await run('cat pipe')).outcome).toBe('asked')
    expect((await run('wc -l < pipe')).outcome).toBe('asked')
  })

  it('a fifo a glob matches is asked', async () => {
    await writeFile(join(stack.root, 'a.txt'), 'a\n')
    expect((await run('cat ./*')).outcome).toBe('asked')
    expect((await run('head -1 ./a*')).outcome).toBe('ran')
  })

  it('a recursive grep over a folder that holds a fifo runs and ends', async () => {
    await writeFile(join(stack.root, 'a.txt'), 'needle\n')
    expect(await run('grep -r needle .')).toEqual({
      outcome: 'ran',
      text: './a.txt:needle\nexit code 0',
    })
  })
})

describe('programs found on PATH', () => {
  it('a program PATH finds in the workspace is asked', async () => {
    const marker = join(outside, 'ran')
    await mkdir(join(stack.root, 'bin'))
    await writeFile(join(stack.root, 'bin', 'git'), `#!/bin/sh\ntouch ${marker}\n`)
    await chmod(join(stack.root, 'bin', 'git'), 0o755)
    vi.stubEnv('PATH', `${join(stack.root, 'bin')}:${process.env.PATH ?? ''}`)
    expect((await run('git status')).outcome).toBe('asked')
    expect(existsSync(marker)).toBe(false)
    expect((await run('echo hi')).outcome).toBe('ran')
  })

  it('a relative PATH entry reaches the workspace and is asked', async () => {
    await mkdir(join(stack.root, 'tools'))
    await writeFile(join(stack.root, 'tools', 'ls'), '#!/bin/sh\necho planted\n')
    await chmod(join(stack.root, 'tools', 'ls'), 0o755)
    vi.stubEnv('PATH', `tools:${process.env.PATH ?? ''}`)
    expect((await run('ls')).outcome).toBe('asked')
  })
})

describe("a repository's git config", () => {
  it('a bare fixture whose config runs fsmonitor is asked, and nothing runs', async () => {
    const marker = join(outside, 'fsmonitor-ran')
    const fixture = join(stack.root, 'fx.git')
    git(stack.root, 'init', '-q', '--bare', 'fx.git')
    git(fixture, 'config', 'core.bare', 'false')
    git(fixture, 'config', 'core.worktree', '..')
    git(fixture, 'config', 'core.fsmonitor', `touch ${marker}; false`)
    for (const sub of ['status', 'diff', 'ls-files']) {
      expect((await run(`git -C fx.git ${sub}`)).outcome).toBe('asked')
    }
    expect(existsSync(marker)).toBe(false)
  })

  it.each(['ask', 'auto-edit'])(
    'in %s the workspace repository runs git unasked with no configured program',
    async (mode) => {
      await repository()
      const ran = (name: string) => join(outside, name)
      git(stack.root, 'config', 'core.fsmonitor', `touch ${ran('fsmonitor')}; false`)
      git(stack.root, 'config', 'diff.conv.textconv', `touch ${ran('textconv')}; cat`)
      git(stack.root, 'config', 'diff.external', `touch ${ran('external')}; true`)
      git(stack.root, 'config', 'core.hooksPath', join(stack.root, 'hooks'))
      await mkdir(join(stack.root, 'hooks'))
      await writeFile(
        join(stack.root, 'hooks', 'post-index-change'),
        `#!/bin/sh\ntouch ${ran('hook')}\n`,
      )
      await chmod(join(stack.root, 'hooks', 'post-index-change'), 0o755)
      await writeFile(join(stack.root, 'a.txt'), 'two\n')
      const diff = await run('git diff', mode)
      expect(diff.outcome).toBe('ran')
      expect(diff.text).toContain('+two')
      for (const command of [
        'git status --short',
        'git log -p -1',
        'git show',
        'git ls-files -m',
      ]) {
        expect((await run(command, mode)).outcome).toBe('ran')
      }
      for (const name of ['fsmonitor', 'textconv', 'external', 'hook']) {
        expect(existsSync(ran(name)), name).toBe(false)
      }
    },
  )

  it('git -C into a nested repository is asked', async () => {
    await repository()
    await mkdir(join(stack.root, 'nested'))
    git(join(stack.root, 'nested'), 'init', '-q')
    expect((await run('git -C nested status')).outcome).toBe('asked')
    await mkdir(join(stack.root, 'plain'))
    expect((await run('git -C plain status --short')).outcome).toBe('ran')
  })
})
