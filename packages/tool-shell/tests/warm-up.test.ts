// The tool's warm-up on a real stack (the local shell, the permission layer): the first
// `tools/warm-up` of the process runs the shell's own warm-up and one call of the tool in the
// session's folder, asking nothing and writing nothing; a session opening beside it starts
// none of it again.
import { readdirSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ShellExit } from '@deepseek-ai/dsh-shell'
import { untraced } from '@deepseek-ai/dsh-tools'
import { shellStack } from './helpers/stack'
import type { ShellStack } from './helpers/stack'
import { testSession } from '@deepseek-ai/dsh-tools/testing'

let stack: ShellStack | undefined
afterEach(async () => {
  await stack?.cleanup()
  stack = undefined
})

describe('the warm-up', () => {
  it('runs the tool once for the process, asking and writing nothing', async () => {
    stack = await shellStack()
    const shell = untraced(stack.ctx.shell)
    const warmUp = vi.spyOn(shell, 'warmUp')
    const run = shell.run.bind(shell)
    const runs: { command: string; exit: Promise<ShellExit> }[] = []
    vi.spyOn(shell, 'run').mockImplementation((options) => {
      const exit = run(options)
      runs.push({ command: options.command, exit })
      return exit
    })
    const agent = (id: string) => ({ session: testSession({ id, cwd: stack!.root, mode: 'ask' }) })
    stack.ctx.emit('tools/warm-up', agent('a'))
    stack.ctx.emit('tools/warm-up', agent('b'))
    await vi.waitFor(() => expect(runs.map((r) => r.command)).toContain('echo warm-up'))
    const exits = await Promise.all(runs.map((r) => r.exit))
    expect(runs.map((r) => r.command)).toEqual(['true', 'echo warm-up'])
    expect(exits.map((exit) => exit.exitCode)).toEqual([0, 0])
    expect(warmUp).toHaveBeenCalledTimes(1)
    expect(warmUp).toHaveBeenCalledWith(stack.root)
    expect(stack.asked).toEqual([])
    expect(readdirSync(stack.outputDir)).toEqual([])
  })
})
