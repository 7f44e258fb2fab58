// Python through pyright or basedpyright where installed (not a dependency: it is large);
// skipped, and says so in its title, where neither is on PATH.
import { afterEach, describe, expect, it } from 'vitest'
import { findProgram } from '../src/servers'
import { makeProject, mountTools, textOf } from './helpers/project'
import type { Mounted } from './helpers/project'

const pyright = findProgram('pyright-langserver', []) ?? findProgram('basedpyright-langserver', [])

let mounted: Mounted | undefined
afterEach(async () => {
  await mounted?.dispose()
  mounted = undefined
})

describe('python', () => {
  it.skipIf(pyright === undefined)(
    `an edit that breaks a type gets pyright's error${pyright === undefined ? ' (skipped: pyright-langserver is not installed)' : ''}`,
    { timeout: 120_000 },
    async () => {
      const root = await makeProject(
        { 'pyproject.toml': '', 'a.py': 'x: int = 1\n' },
        { typescript: false },
      )
      mounted = await mountTools(root, { sandbox: 'off', startMs: 90_000 })
      const result = await mounted.run('edit', {
        file_path: 'a.py',
        old_string: '= 1',
        new_string: '= "one"',
      })
      expect(textOf(result)).toMatch(/a\.py:1:10 error/)
    },
  )
})
