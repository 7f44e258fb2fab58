// The `job_output` and `job_kill` tools over ctx.shell's background jobs (started by `bash`
// with `run_in_background`; a job's id is the id of that call). job_output gives the output
// since the last read, capped as a command's is, and whether the job still runs or how it
// ended; job_kill ends the job's process group. Both only touch what the agent started, so the
// permission layer judges them as reads of the workspace.
import { join } from 'node:path'
import type { Shell } from '@deepseek-ai/dsh-shell'
import { defineTool } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'
import { endingOf } from './ending'
import { cwdOf } from './confine'
import { CommandOutput } from './output'

export interface JobsHost {
  shell: Shell
  outputDir: string
}

const jobInput = z.object({
  job_id: z.string().min(1).describe('The id of the bash call that started the job.'),
})

export function createJobOutputTool(host: JobsHost) {
  return defineTool({
    name: 'job_output',
    description:
      'Returns the output a background job wrote since the last read, and whether it still runs.',
    input: jobInput,
    execute: async (args, exec) => {
      const read = host.shell.jobs.read(args.job_id)
      const output = new CommandOutput(
        join(host.outputDir, 'jobs', `${Date.now()}-${exec.callId}.log`),
      )
      output.push(read.output)
      const { text } = output.finish()
      const dropped = read.dropped > 0 ? `[${read.dropped} earlier characters were dropped]\n` : ''
      const body = text.length > 0 && !text.endsWith('\n') ? `${text}\n` : text
      const state = read.exit === undefined ? 'still running' : `ended: ${endingOf(read.exit, 0)}`
      return `${dropped}${body}job ${args.job_id} ${state}`
    },
    presentCall: (args) => ({ title: `Output of job ${args.job_id}`, kind: 'execute' }),
    access: (_args, exec) => ({ effect: 'read', scope: [cwdOf(exec)] }),
  })
}

export function createJobKillTool(host: JobsHost) {
  return defineTool({
    name: 'job_kill',
    description: 'Ends a background job and every process it started.',
    input: jobInput,
    execute: async (args) => {
      const exit = await host.shell.jobs.kill(args.job_id)
      return `job ${args.job_id} ended: ${endingOf(exit, 0)}`
    },
    presentCall: (args) => ({ title: `Kill job ${args.job_id}`, kind: 'execute' }),
    // It ends only a job this agent started: nothing of the person's world, in every mode.
    access: () => ({ effect: 'none' }),
  })
}
