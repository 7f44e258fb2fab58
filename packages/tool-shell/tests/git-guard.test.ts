// How a read-only command runs its git: each diff printer gets `--no-ext-diff --no-textconv`
// right after its name, wherever it stands in the command; other parts are left as written.
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '@deepseek-ai/dsh-shell-policy'
import { GIT_GUARD_ENV, guardedCommand, runsGit } from '../src/git-guard'

async function guarded(command: string): Promise<string> {
  const classified = await classifyCommand(command)
  if (!classified.parsed) throw new Error(`${command} does not parse`)
  return guardedCommand(command, classified.parts)
}

describe('the diff printers of a read-only command', () => {
  it.each([
    ['git diff', 'git diff --no-ext-diff --no-textconv'],
    ['git log -p -1 -- a.txt', 'git log --no-ext-diff --no-textconv -p -1 -- a.txt'],
    [
      'echo "é😀" && git -C sub show HEAD | head -5',
      'echo "é😀" && git -C sub show --no-ext-diff --no-textconv HEAD | head -5',
    ],
    [
      'git --no-pager "diff" --stat; git log',
      'git --no-pager "diff" --no-ext-diff --no-textconv --stat; git log --no-ext-diff --no-textconv',
    ],
    ['git status --short && git ls-files', 'git status --short && git ls-files'],
    ['cat diff', 'cat diff'],
  ])('%s runs as %s', async (command, expected) => {
    expect(await guarded(command)).toBe(expected)
  })

  it('only a read-only git part is guarded', async () => {
    const classified = await classifyCommand('git add . && git diff')
    expect(classified.parsed && runsGit(classified.parts)).toBe(true)
    const other = await classifyCommand('git commit -m x')
    expect(other.parsed && runsGit(other.parts)).toBe(false)
  })

  it('the forced config is quoted as git reads -c options from its environment', () => {
    const given = GIT_GUARD_ENV.GIT_CONFIG_PARAMETERS ?? ''
    expect(given).toMatch(/^'[^']+'( '[^']+')*$/)
    expect(given).toContain("'core.fsmonitor=false'")
    expect(given).toContain("'core.hooksPath=/dev/null'")
  })
})
