// A LocalShell loaded through Cordis, and a command run to its end with its output collected.
import { Context } from 'cordis'
import type { ShellExit, ShellRunOptions } from '@deepseek-ai/dsh-shell'
import LocalShell from '../../src/index'
import type { LocalShellConfig } from '../../src/index'

export interface LoadedShell {
  shell: LocalShell
  dispose(): Promise<void>
}

/** A LocalShell with a short kill grace (500 ms), so the tests that end groups run fast. */
export async function loadShell(config: LocalShellConfig = {}): Promise<LoadedShell> {
  const ctx = new Context()
  const fiber = await ctx.plugin(LocalShell, { killGraceMs: 500, ...config })
  return { shell: ctx.shell as LocalShell, dispose: async () => void (await fiber.dispose()) }
}

export async function runCollect(
  shell: LocalShell,
  options: Omit<ShellRunOptions, 'onOutput'>,
): Promise<ShellExit & { output: string; pid: number }> {
  let output = ''
  const started = shell.start({ ...options, onOutput: (text) => (output += text) })
  const exit = await started.exited
  return { ...exit, output, pid: started.pid }
}
