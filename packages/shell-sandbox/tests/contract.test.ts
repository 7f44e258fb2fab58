// The seam's contract suite, twice: SandboxShell as it runs an unconfined command, and as it
// runs every command confined to its cwd (bwrap around bash), since a confined command must
// end, report and lose its process group exactly as an unconfined one does.
import { Context } from 'cordis'
import type { ShellProcess, ShellRunOptions } from '@deepseek-ai/dsh-shell'
import { runShellContract } from '@deepseek-ai/dsh-shell/testing'
import SandboxShell from '../src/index'
import { skipWithoutSandbox } from '../src/testing'

/** Confines every command it runs to its cwd, with no network. */
class ConfiningShell extends SandboxShell {
  override start(options: ShellRunOptions): ShellProcess {
    const confine = options.confine ?? { writable: [options.cwd], network: false }
    return super.start({ ...options, confine })
  }
}

const providers = [
  ['SandboxShell, unconfined', SandboxShell],
  ['SandboxShell, confined', ConfiningShell],
] as const

// Without a working sandbox the confined run would run unconfined: it is skipped, with the word.
for (const [label, Provider] of skipWithoutSandbox() ? providers.slice(0, 1) : providers) {
  runShellContract(label, async () => {
    const ctx = new Context()
    const fiber = await ctx.plugin(Provider, { killGraceMs: 500 })
    return { shell: ctx.shell, dispose: async () => void (await fiber.dispose()) }
  })
}
