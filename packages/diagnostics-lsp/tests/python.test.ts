// Python over the real pyright-langserver, a dev dependency of these tests (no network, no
// install): found in the project's virtual environment and on PATH, as the provider looks for
// it, and run with no Python interpreter on PATH (pyright checks without one), so these pass on a
// machine without Python. An edit's result names the error it introduced with its line, not one
// already there, and nothing once mended.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PYTHON_MODULE, makePythonProject, mountTools, textOf } from './helpers/project'
import type { Mounted } from './helpers/project'

let mounted: Mounted | undefined
afterEach(async () => {
  vi.unstubAllEnvs()
  await mounted?.dispose()
  mounted = undefined
})

/** The file tools over a Python project, with a PATH that holds node and no Python. */
async function mountPython(files: Record<string, string>, where: 'venv' | 'path') {
  const { root, path } = await makePythonProject(files, where)
  vi.stubEnv('PATH', path)
  mounted = await mountTools(root, { sandbox: 'off', startMs: 90_000 })
  return mounted
}

// A server's first start loads Python's typeshed stubs: slow on a loaded machine.
describe('python through pyright', { timeout: 120_000 }, () => {
  it('an edit that breaks a type gets the error with its line, and the mend gets none', async () => {
    const project = await mountPython({ 'count.py': PYTHON_MODULE }, 'venv')
    const broken = await project.run('edit', {
      file_path: 'count.py',
      old_string: 'return 1',
      new_string: 'return "one"',
    })
    expect(textOf(broken)).toMatch(
      /count\.py:2:12 error reportReturnType: Type "Literal\['one'\]" is not assignable to return type "int"/,
    )
    expect(textOf(broken)).toContain('introduced 1 new error (python)')
    const mended = await project.run('edit', {
      file_path: 'count.py',
      old_string: 'return "one"',
      new_string: 'return 2',
    })
    expect(textOf(mended)).toBe(
      `Edited file ${project.root}/count.py: replaced 1 occurrence at line 2.`,
    )
  })

  it('an error that was already there is not repeated', async () => {
    const old = 'total: int = "x"\n' + PYTHON_MODULE
    const project = await mountPython({ 'count.py': old }, 'path')
    const result = await project.run('edit', {
      file_path: 'count.py',
      old_string: 'return 1',
      new_string: 'return None',
    })
    const text = textOf(result)
    expect(text).toMatch(/count\.py:3:12 error reportReturnType: Type "None" is not assignable/)
    expect(text).not.toContain('"x"')
    expect(text).toContain('introduced 1 new error (python)')
  })
})
