// The `job_output` and `job_kill` tools over ctx.jobs: whatever started a session's background
// work (bash with `run_in_background`, a background task), the model reads it and ends it by
// the id that call returned. The provider that holds the id answers; an id the session does
// not know is refused with its jobs listed (./providers). Both touch only what the agent
// started: job_output is judged a read of the workspace (so it runs beside other reads),
// job_kill changes nothing of the person's world, in every mode.
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'
import type { JobProviders } from './providers'

const jobInput = z.object({
  job_id: z
    .string()
    .min(1)
    .describe('The id the bash or task call with run_in_background returned.'),
})

export function createJobOutputTool(providers: JobProviders) {
  return defineTool({
    name: 'job_output',
    description:
      'Returns where a background job is: a command’s output since the last read, a task’s ' +
      'calls so far, and whether it still runs or how it ended (a task’s report).',
    input: jobInput,
    execute: async (args, exec) =>
      providers.find(args.job_id, sessionOf(exec)).read(args.job_id, exec),
    presentCall: (args) => ({ title: `Output of job ${args.job_id}`, kind: 'other' }),
    access: (_args, exec) => ({ effect: 'read', scope: [exec.session.header.cwd] }),
  })
}

export function createJobKillTool(providers: JobProviders) {
  return defineTool({
    name: 'job_kill',
    description:
      'Ends a background job at once: a command and every process it started, or a task’s delegate.',
    input: jobInput,
    execute: async (args, exec) =>
      providers.find(args.job_id, sessionOf(exec)).kill(args.job_id, exec),
    presentCall: (args) => ({ title: `Kill job ${args.job_id}`, kind: 'other' }),
    access: () => ({ effect: 'none' }),
  })
}

function sessionOf(exec: ToolExecution) {
  return exec.session
}
