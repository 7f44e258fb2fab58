// The warm-up a session opening starts (after its answer), over the real SDK client: the bash
// tool runs one command ahead with nothing shown — no card, no question, no notice — its
// processes end, and the session's first command then runs as any other. Without a working
// sandbox, the one-time word about it is still said at the first real command, not before.
// Every frame is checked against the schema.
import { describe, expect, it, vi } from 'vitest'
import type {} from '@deepseek-ai/dsh-shell-sandbox' // for its augmentation: ctx.shell
import { describeWithSandbox } from '@deepseek-ai/dsh-shell-sandbox/testing'
import { untraced } from '@deepseek-ai/dsh-tools'
import type { AcpHarness } from '../src/harness'
import { bashTurns, lastOf } from './helpers/commands'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

/** The commands the shell provider is asked to run from now on, as they are asked. */
function watchRuns(harness: AcpHarness) {
  const shell = untraced(harness.ctx.shell)
  const run = shell.run.bind(shell)
  const runs: { command: string; exit: ReturnType<typeof run> }[] = []
  vi.spyOn(shell, 'run').mockImplementation((options) => {
    const exit = run(options)
    runs.push({ command: options.command, exit })
    return exit
  })
  return runs
}

/** The warm-up's two commands (the shell's own `true`, then the tool's), once both ended. */
async function warmUpEnded(runs: ReturnType<typeof watchRuns>) {
  await vi.waitFor(() => expect(runs).toHaveLength(2), { timeout: 10_000 })
  return Promise.all(runs.map((run) => run.exit))
}

/** What the session showed besides the commands it offers (sent as it opens). */
const shown = (harness: AcpHarness, sessionId: string) =>
  harness.updatesOf(sessionId).filter((u) => u.sessionUpdate !== 'available_commands_update')

describeWithSandbox('the warm-up in the sandbox', () => {
  it('runs the tool once read-only with no card and no question, then the first command runs', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      sandbox: true,
      script: bashTurns('ls'),
    })
    const runs = watchRuns(harness)
    const sessionId = await harness.newSession()
    const exits = await warmUpEnded(runs)
    expect(runs.map((run) => run.command)).toEqual(['true', 'echo warm-up'])
    expect(exits[1]).toMatchObject({ exitCode: 0, confined: 'read-only' })
    expect(shown(harness, sessionId)).toEqual([])
    expect(harness.permissionRequests).toEqual([])
    await harness.prompt(sessionId, 'list the files')
    expect(harness.permissionRequests).toEqual([])
    expect(lastOf(harness.updatesOf(sessionId), 'b1')).toMatchObject({ status: 'completed' })
    expect(runs).toHaveLength(3)
  })
})

describe('the warm-up without a working sandbox', () => {
  it('tells the person nothing; the first command still says the sandbox is missing', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      sandbox: { bwrap: '/nonexistent/bwrap' },
      notices: true,
      script: bashTurns('ls'),
    })
    const runs = watchRuns(harness)
    const sessionId = await harness.newSession()
    const exits = await warmUpEnded(runs)
    expect(exits[1]).toMatchObject({ exitCode: 0 })
    expect(exits[1]!.confined).toBeUndefined()
    expect(shown(harness, sessionId)).toEqual([])
    await harness.prompt(sessionId, 'list the files')
    const notices = harness.updatesOf(sessionId).filter((u) => u.sessionUpdate === 'notice')
    expect(notices).toEqual([
      expect.objectContaining({ sessionUpdate: 'notice', title: 'Commands are not sandboxed' }),
    ])
    expect(lastOf(harness.updatesOf(sessionId), 'b1')).toMatchObject({ status: 'completed' })
  })
})
