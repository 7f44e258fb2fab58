import { Context } from 'cordis'
import { runShellContract } from '@deepseek-ai/dsh-shell/testing'
import LocalShell from '../src/index'

runShellContract('LocalShell', async () => {
  const ctx = new Context()
  const fiber = await ctx.plugin(LocalShell, { killGraceMs: 500 })
  return { shell: ctx.shell, dispose: async () => void (await fiber.dispose()) }
})
