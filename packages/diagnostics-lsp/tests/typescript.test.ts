// Over a real typescript-language-server with this repository's typescript: an edit's result
// names the errors it introduced (in the file, and in a file it broke), not those already
// there, and nothing once mended; a project without typescript edits as before.
import { afterEach, describe, expect, it } from 'vitest'
import { TSCONFIG, makeProject, mountTools, textOf } from './helpers/project'
import type { Mounted } from './helpers/project'

let mounted: Mounted | undefined
afterEach(async () => {
  await mounted?.dispose()
  mounted = undefined
})

const COUNT = 'export function count(): number {\n  return 1\n}\n'
const MAIN =
  "import { count } from './count'\n\nconst total: number = count()\nconsole.log(total)\n"

// A server's first start loads the project and TypeScript's libraries: slow on a loaded machine.
describe('an edit that breaks a type', { timeout: 120_000 }, () => {
  it('gets TS2322 with its line, and the mend gets none', async () => {
    const root = await makeProject({ 'tsconfig.json': TSCONFIG, 'src/count.ts': COUNT })
    mounted = await mountTools(root, { sandbox: 'off', startMs: 90_000 })
    const broken = await mounted.run('edit', {
      file_path: 'src/count.ts',
      old_string: 'return 1',
      new_string: "return 'one'",
    })
    expect(broken.isError).toBe(false)
    expect(textOf(broken)).toContain(
      "src/count.ts:2:3 error TS2322: Type 'string' is not assignable to type 'number'.",
    )
    expect(textOf(broken)).toContain('introduced 1 new error')
    const mended = await mounted.run('edit', {
      file_path: 'src/count.ts',
      old_string: "return 'one'",
      new_string: 'return 2',
    })
    expect(textOf(mended)).not.toContain('TS2322')
    expect(textOf(mended)).toBe(
      `Edited file ${root}/src/count.ts: replaced 1 occurrence at line 2.`,
    )
  })

  it('names another file the change broke', async () => {
    const root = await makeProject({
      'tsconfig.json': TSCONFIG,
      'src/count.ts': COUNT,
      'src/main.ts': MAIN,
    })
    mounted = await mountTools(root, { sandbox: 'off', startMs: 90_000 })
    const result = await mounted.run('edit', {
      file_path: 'src/count.ts',
      old_string: 'count(): number {\n  return 1',
      new_string: "count(): string {\n  return 'one'",
    })
    expect(textOf(result)).toMatch(
      /src\/main\.ts:3:7 error TS2322: Type 'string' is not assignable to type 'number'\./,
    )
    expect(textOf(result)).not.toMatch(/src\/count\.ts:\d+:\d+/)
  })

  it('does not repeat errors that were there before the change', async () => {
    const old = "export const a: number = 'x'\n" + COUNT
    const root = await makeProject({ 'tsconfig.json': TSCONFIG, 'src/count.ts': old })
    mounted = await mountTools(root, { sandbox: 'off', startMs: 90_000 })
    const result = await mounted.run('edit', {
      file_path: 'src/count.ts',
      old_string: 'return 1',
      new_string: 'return true',
    })
    const text = textOf(result)
    expect(text).toContain("src/count.ts:3:3 error TS2322: Type 'boolean' is not assignable")
    expect(text).not.toContain("'string'")
    expect(text).toContain('introduced 1 new error')
  })
})

describe('a project without typescript', () => {
  it('edits as before, with no server and no added wait', async () => {
    const root = await makeProject({ 'src/count.ts': COUNT }, { typescript: false })
    mounted = await mountTools(root, { sandbox: 'off' })
    const started = performance.now()
    const result = await mounted.run('edit', {
      file_path: 'src/count.ts',
      old_string: 'return 1',
      new_string: "return 'one'",
    })
    expect(performance.now() - started).toBeLessThan(300)
    expect(textOf(result)).toBe(
      `Edited file ${root}/src/count.ts: replaced 1 occurrence at line 2.`,
    )
  })
})
