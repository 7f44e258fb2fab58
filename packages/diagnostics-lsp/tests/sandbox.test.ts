// Where bubblewrap works, a server (TypeScript's, pyright) runs in the read-only sandbox (no
// writes, no network) and still checks the project; in the `ask` mode without a sandbox, the
// person is asked once per workspace before a server first starts (again after a cancelled
// question), a refusal leaves edits as they were, and an edit does not wait for a late answer.
import { afterEach, describe, expect, it } from 'vitest'
import { describeWithSandbox } from '@deepseek-ai/dsh-shell-sandbox/testing'
import type { ToolPermissionAnswer, ToolPermissionRequest } from '@deepseek-ai/dsh-tools'
import {
  PYTHON_MODULE,
  TSCONFIG,
  makeProject,
  makePythonProject,
  mountTools,
  processesWith,
  textOf,
} from './helpers/project'
import type { Mounted } from './helpers/project'

const COUNT = 'export function count(): number {\n  return 1\n}\n'

/** A process whose argv names `server` is bwrap's, with no network. */
function runsUnderBwrap(server: string): boolean {
  const found = processesWith(server)
  return found.some((argv) => argv.startsWith('bwrap ') && argv.includes('--unshare-net'))
}

let mounted: Mounted | undefined
afterEach(async () => {
  await mounted?.dispose()
  mounted = undefined
})

describeWithSandbox('in the sandbox', () => {
  it(
    'the TypeScript server runs under bwrap, read-only, and still reports TS2322',
    { timeout: 120_000 },
    async () => {
      const root = await makeProject({ 'tsconfig.json': TSCONFIG, 'src/count.ts': COUNT })
      mounted = await mountTools(root, { startMs: 90_000 })
      const result = await mounted.run('edit', {
        file_path: 'src/count.ts',
        old_string: 'return 1',
        new_string: "return 'one'",
      })
      expect(textOf(result)).toContain('src/count.ts:2:3 error TS2322')
      expect(runsUnderBwrap('typescript-language-server')).toBe(true)
    },
  )

  it(
    'pyright runs under bwrap, read-only, and still reports the broken return type',
    { timeout: 120_000 },
    async () => {
      const project = await makePythonProject({ 'count.py': PYTHON_MODULE }, 'venv')
      mounted = await mountTools(project.root, { startMs: 90_000 })
      const result = await mounted.run('edit', {
        file_path: 'count.py',
        old_string: 'return 1',
        new_string: 'return "one"',
      })
      expect(textOf(result)).toContain('count.py:2:12 error reportReturnType')
      expect(runsUnderBwrap('pyright-langserver')).toBe(true)
    },
  )
})

describe('without a sandbox, in the ask mode', () => {
  it('asks once per workspace, and a refusal leaves edits as they were', async () => {
    const root = await makeProject({ 'tsconfig.json': TSCONFIG, 'src/count.ts': COUNT })
    const asked: ToolPermissionRequest[] = []
    const ask = async (request: ToolPermissionRequest) => {
      asked.push(request)
      return { outcome: 'selected' as const, optionId: 'refuse-language-servers' }
    }
    mounted = await mountTools(root, { sandbox: 'off' }, { mode: 'ask', channels: { ask } })
    const first = await mounted.run('edit', {
      file_path: 'src/count.ts',
      old_string: 'return 1',
      new_string: "return 'one'",
    })
    const second = await mounted.run('edit', {
      file_path: 'src/count.ts',
      old_string: "return 'one'",
      new_string: 'return 2',
    })
    expect(asked.map((request) => request.presentation.title)).toEqual([
      `Start language servers in ${root}?`,
    ])
    expect(textOf(first)).toBe(`Edited file ${root}/src/count.ts: replaced 1 occurrence at line 2.`)
    expect(textOf(second)).toBe(
      `Edited file ${root}/src/count.ts: replaced 1 occurrence at line 2.`,
    )
    expect(processesWith(root)).toEqual([])
  })

  it(
    'does not hold an edit for a late answer, and starts the server once allowed',
    { timeout: 120_000 },
    async () => {
      const root = await makeProject({ 'tsconfig.json': TSCONFIG, 'src/count.ts': COUNT })
      const asked: ToolPermissionRequest[] = []
      let answer: (said: ToolPermissionAnswer) => void = () => {}
      const ask = (request: ToolPermissionRequest) => {
        asked.push(request)
        return new Promise<ToolPermissionAnswer>((resolve) => (answer = resolve))
      }
      mounted = await mountTools(
        root,
        { sandbox: 'off', waitMs: 200, startMs: 90_000 },
        { mode: 'ask', channels: { ask } },
      )
      // The answer is held until the edit's result arrived: the edit must not wait for it.
      const first = await mounted.run('edit', {
        file_path: 'src/count.ts',
        old_string: 'return 1',
        new_string: "return 'one'",
      })
      expect(textOf(first)).toContain("Diagnostics wait for the person's answer")
      expect(textOf(first)).not.toContain('TS2322')
      answer({ outcome: 'selected', optionId: 'allow-language-servers' })
      const second = await mounted.run('edit', {
        file_path: 'src/count.ts',
        old_string: "return 'one'",
        new_string: 'return true',
      })
      expect(textOf(second)).toContain("src/count.ts:2:3 error TS2322: Type 'boolean'")
      expect(asked).toHaveLength(1)
    },
  )
  it('asks again at the next change when the question was cancelled', async () => {
    const root = await makeProject({ 'tsconfig.json': TSCONFIG, 'src/count.ts': COUNT })
    const answers: ToolPermissionAnswer[] = [
      { outcome: 'cancelled' },
      { outcome: 'selected', optionId: 'refuse-language-servers' },
    ]
    let asked = 0
    const ask = async () => answers[asked++] ?? { outcome: 'cancelled' as const }
    mounted = await mountTools(root, { sandbox: 'off' }, { mode: 'ask', channels: { ask } })
    await mounted.run('edit', { file_path: 'src/count.ts', old_string: '1', new_string: '2' })
    await mounted.run('edit', { file_path: 'src/count.ts', old_string: '2', new_string: '3' })
    await mounted.run('edit', { file_path: 'src/count.ts', old_string: '3', new_string: '4' })
    expect(asked).toBe(2)
  })
})
