// tool-shell: the `bash` tool over ctx.shell, its cards, the command classifier that tells the
// permission layer what a command does (./access), and a system-prompt section; its background
// commands are provided into ctx.jobs (./jobs), whose job_output and job_kill read and end
// them, whenever that service is loaded. A function plugin: everything it registers goes away
// when it is disposed. It runs no process itself: the shell provider does (shell-local, or a
// sandbox).
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Context } from 'cordis'
import { z } from 'zod'
import type {} from '@deepseek-ai/dsh-jobs' // for its augmentation: ctx.jobs
import type {} from '@deepseek-ai/dsh-shell' // for its augmentation: ctx.shell
import type {} from '@deepseek-ai/dsh-system-prompt' // for its augmentation: ctx.systemPrompt
import { configOf, tellPerson } from '@deepseek-ai/dsh-tools'
import { createBashTool } from './bash'
import { CommandJobs } from './jobs'
import { UnsandboxedNotices } from './notice'
import { SPILL_LIMITS, SpillStore } from './spill'
import { bashPrompt } from './prompt'
import { warmUpBash } from './warm'

export const name = 'tool-shell'

export const inject = ['shell', 'tools', 'systemPrompt']

export const Config = z
  .object({
    outputDir: z
      .string()
      .default(() => join(tmpdir(), 'dsh-shell-output'))
      .describe(
        'The folder under which the whole output of a cut result is kept, in a private ' +
          'folder per process; keep it out of what commands may write.',
      ),
    spillCallBytes: z
      .number()
      .int()
      .min(0)
      .default(SPILL_LIMITS.callBytes)
      .describe('The most bytes of one cut result kept in its file.'),
    spillSessionBytes: z
      .number()
      .int()
      .min(0)
      .default(SPILL_LIMITS.sessionBytes)
      .describe('The most bytes of cut results a session keeps in files together.'),
    batchMs: z
      .number()
      .int()
      .min(0)
      .default(100)
      .describe('Milliseconds between two reports of a running command’s output.'),
    sandboxNetwork: z
      .boolean()
      .default(false)
      .describe('A command the sandbox confines may reach the network.'),
  })
  .prefault({})

export type ToolShellConfig = z.input<typeof Config>

export function apply(ctx: Context, config: ToolShellConfig): void {
  const { outputDir, batchMs, sandboxNetwork, ...limits } = configOf(Config, config)
  // The whole output of cut results: deleted with its session, and all when this goes away.
  const spills = new SpillStore(outputDir, {
    callBytes: limits.spillCallBytes,
    sessionBytes: limits.spillSessionBytes,
  })
  spills.prepare()
  ctx.effect(() => () => spills.dispose(), 'spilled output')
  // Looked up per call, so a replaced provider is used.
  const shellOf = () => ctx.shell
  const jobs = new CommandJobs({
    get shell() {
      return shellOf()
    },
    spills,
  })
  const host = {
    get shell() {
      return shellOf()
    },
    spills,
    jobs,
    batchMs,
    network: sandboxNetwork,
    // Through the session's notice channel (none for a session whose host gives none).
    notices: new UnsandboxedNotices((exec, notice) => void tellPerson(exec, notice)),
  }
  ctx.tools.register(createBashTool(host))
  // The first session that opens readies the first command, off its answer's path (./warm).
  let warmed = false
  ctx.on('tools/warm-up', (agent) => {
    if (warmed) return
    warmed = true
    void warmUpBash(host, agent)
  })
  // With ctx.jobs (whenever it is loaded), job_output and job_kill find the background commands.
  ctx.inject(['jobs'], (inner) => void inner.jobs.provide(jobs))
  ctx.systemPrompt.add({ name: 'tool-shell/bash', text: bashPrompt })
}

export { classifyCommand, isReadOnly } from '@deepseek-ai/dsh-shell-policy'
export { CONFINEMENT_BY_MODE, confinementOf } from './confine'
export { UNSANDBOXED_TITLE } from './notice'
export type { CommandClass, CommandPart } from '@deepseek-ai/dsh-shell-policy'
export { commandTitle } from './present'
export { OUTPUT_CAP_CHARS } from './output'
export type { BashArgs, BashDetails } from './input'
