// What the person's next host `git` or editor would run, planted from inside the sandbox, in
// the layouts where `.git` alone is not enough: a submodule's `.git` file repointed, husky's
// hooks (`core.hooksPath`), a tracked `.gitconfig` included from `.git/config`, a workspace
// opened at a subfolder of a repository in the writable /tmp, and the editor's and direnv's
// files (`.zed`, `.vscode`, `.envrc`). Each stays as it was; an ordinary file beside still lands.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { describeWithSandbox } from '../src/testing'
import { runCollect } from './helpers/os'
import { sandboxStack } from './helpers/stack'
import type { SandboxStack } from './helpers/stack'

let stack: SandboxStack

beforeEach(async () => {
  stack = await sandboxStack()
})

afterEach(async () => {
  await stack.cleanup()
})

const git = (args: string[], cwd: string) => execFileSync('git', args, { cwd, encoding: 'utf8' })

/** Runs `command` confined to `root` (default the stack's) in `cwd`; what each file holds after. */
async function plant(files: Record<string, string>, options: { root?: string; cwd?: string } = {}) {
  const root = options.root ?? stack.root
  const before = Object.fromEntries(
    Object.keys(files).map((path) => [path, readFileSync(join(root, path), 'utf8')]),
  )
  const command = [
    ...Object.entries(files).map(([path, text]) => `printf '%s' '${text}' > ${path}`),
    'echo ok > ordinary.txt',
  ].join('; ')
  const cwd = options.cwd ?? root
  const exit = await runCollect(stack.shell, {
    command,
    cwd,
    confine: { writable: [cwd], network: false },
  })
  expect(exit.output.match(/Read-only file system/g)).toHaveLength(Object.keys(files).length)
  expect(readFileSync(join(cwd, 'ordinary.txt'), 'utf8')).toBe('ok\n')
  for (const [path, text] of Object.entries(before)) {
    expect(readFileSync(join(root, path), 'utf8')).toBe(text)
  }
}

describeWithSandbox('what git runs later, in the common layouts', () => {
  it('a submodule’s .git file cannot be repointed', async () => {
    git(['init', '-q', '.'], stack.root)
    git(['init', '-q', '--bare', '.git/modules/sub'], stack.root)
    await mkdir(join(stack.root, 'sub'))
    await writeFile(join(stack.root, 'sub/.git'), 'gitdir: ../.git/modules/sub\n')
    await writeFile(join(stack.root, '.gitmodules'), '[submodule "sub"]\n\tpath = sub\n')
    await plant({ 'sub/.git': 'gitdir: ../planted' })
  })

  it('husky’s hooks folder (core.hooksPath) cannot take a hook', async () => {
    git(['init', '-q', '.'], stack.root)
    git(['config', 'core.hooksPath', '.husky/_'], stack.root)
    await mkdir(join(stack.root, '.husky/_'), { recursive: true })
    await writeFile(join(stack.root, '.husky/_/pre-commit'), '#!/bin/sh\n')
    await writeFile(join(stack.root, '.husky/pre-commit'), 'npm test\n')
    await plant({ '.husky/_/pre-commit': 'touch /x', '.husky/pre-commit': 'touch /x' })
  })

  it('a tracked .gitconfig included from .git/config cannot take a core.fsmonitor', async () => {
    git(['init', '-q', '.'], stack.root)
    git(['config', 'include.path', '../.gitconfig'], stack.root)
    await writeFile(join(stack.root, '.gitconfig'), '[alias]\n\tst = status\n')
    await plant({ '.gitconfig': '[core] fsmonitor = touch /x' })
  })

  it('a repository above a root in the writable /tmp cannot take a hook', async () => {
    const repo = await mkdtemp('/tmp/dsh-above-')
    try {
      git(['init', '-q', '.'], repo)
      await mkdir(join(repo, 'sub'))
      await writeFile(join(repo, '.git/hooks/pre-commit'), '#!/bin/sh\n')
      await plant({ '../.git/hooks/pre-commit': 'touch /x' }, { root: join(repo, 'sub') })
    } finally {
      await rm(repo, { recursive: true, force: true })
    }
  })
})

describeWithSandbox('what the editor and the shell run later', () => {
  it('.zed, .vscode and .envrc stay as they are', async () => {
    await mkdir(join(stack.root, '.zed'))
    await mkdir(join(stack.root, '.vscode'))
    await writeFile(join(stack.root, '.zed/settings.json'), '{}\n')
    await writeFile(join(stack.root, '.vscode/tasks.json'), '{}\n')
    await writeFile(join(stack.root, '.envrc'), 'export A=1\n')
    await plant({
      '.zed/settings.json': '{"context_servers": {}}',
      '.vscode/tasks.json': '{"tasks": []}',
      '.envrc': 'touch /x',
    })
  })
})
