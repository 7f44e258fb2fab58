// The harness's tree is the app's (stack's appTree) with the keys a test asks for: each choice
// the app makes (the compaction's kept tools, the modes offered, the default mode, the shell's
// layout) reaches the tests as written there, and what a test did not ask for is not loaded.
import { appTree } from '@deepseek-ai/dsh-stack'
import { describe, expect, it } from 'vitest'
import { harnessStack } from '../src/harness-stack'

const WORKSPACE = '/w'
const script = { turns: [] }

describe('the harness tree', () => {
  it('takes the app choices from the app tree', () => {
    const app = appTree({
      cwd: WORKSPACE,
      llm: { kind: 'scripted', script },
      mode: 'plan',
      sandbox: { enabled: false },
      shellOutputDir: '/w/.dsh-output',
    })
    const tree = harnessStack(
      { withFs: true, withPlan: true, withShell: true, mode: 'plan' },
      WORKSPACE,
    )
    expect(tree.agents?.compaction).toEqual(app.agents?.compaction)
    expect(tree.agents?.compaction).toEqual({ keepTools: ['todo'] })
    expect(tree.acp).toEqual({ modes: app.acp?.modes, defaultMode: 'plan' })
    expect(tree.permission).toEqual(app.permission)
    expect(tree.toolShell).toEqual(app.toolShell)
    expect(tree.shellLocal).toEqual(app.shellLocal)
  })

  it('leaves out what the test did not ask for', () => {
    const tree = harnessStack({}, WORKSPACE)
    expect(Object.keys(tree).sort()).toEqual(['acp', 'agents', 'llm'])
    expect(tree.acp).not.toHaveProperty('mcpCapabilities')
    expect(tree.agents).toEqual({ maxSteps: 50, compaction: { keepTools: ['todo'] } })
  })

  it('gives the sandboxing shell the test output folder and its own program', () => {
    const tree = harnessStack(
      { withShell: { killGraceMs: 5 }, sandbox: { bwrap: '/nope' } },
      WORKSPACE,
    )
    expect(tree.shellSandbox).toMatchObject({
      killGraceMs: 5,
      bwrap: '/nope',
      visible: ['/w/.dsh-output'],
    })
    expect(tree.shellLocal).toBeUndefined()
    expect(tree.toolShell).toEqual({ outputDir: '/w/.dsh-output', sandboxNetwork: false })
  })
})
