// The root's scripts/quietly.mjs, which `npm run demo` builds with: a step's output is held
// back and replaced by one line, shown whole only when the step fails, whose exit code is
// then the script's; the steps after a failing one do not run.
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './helpers/build'

const QUIETLY = join(REPO_ROOT, 'scripts/quietly.mjs')

function quietly(...args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [QUIETLY, ...args], (error, stdout) => {
      resolve({ code: error === null ? 0 : Number(error.code), stdout })
    })
  })
}

const node = process.execPath
/** A step that runs `code` in Node: its label, the command and its arguments. */
const step = (label: string, code: string) => [label, node, '-e', code]

describe('running steps quietly', () => {
  it('a step that succeeds shows one line, not its output', async () => {
    const run = await quietly(
      ...step('Building', 'console.log("line of build noise"); console.error("more noise")'),
      '--',
      ...step('Checking', '0'),
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Building… done \(\d+\.\d s\)\nChecking… done \(\d+\.\d s\)\n$/)
  })

  it('a failing step shows its whole output and its exit code ends the run before the next step', async () => {
    const run = await quietly(
      ...step(
        'Building',
        'console.log("step one"); console.error("the reason it broke"); process.exit(3)',
      ),
      '--',
      ...step('Never', '0'),
    )
    expect(run.code).toBe(3)
    expect(run.stdout).toContain('Building… failed (exit 3')
    expect(run.stdout).toContain('step one\n')
    expect(run.stdout).toContain('the reason it broke\n')
    expect(run.stdout).not.toContain('Never')
  })

  it('a step without a command is refused with exit 2 and a usage line', async () => {
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(node, [QUIETLY, 'Building'], (error, _stdout, stderr) => {
        resolve({ code: error === null ? 0 : Number(error.code), stderr })
      })
    })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('each step needs a label and a command')
  })
})
