// The `task_output` and `task_kill` tools over the session's background tasks (./background):
// where a task is (its calls so far, or its report), and ending one. Both touch only what the
// agent started, so they change nothing of the person's world, in every mode.
import { defineTool } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'
import type { BackgroundTasks } from './background'

const taskIdInput = z.object({
  task_id: z.string().min(1).describe('The id the background task call returned.'),
})

export function createTaskOutputTool(tasks: BackgroundTasks) {
  return defineTool({
    name: 'task_output',
    description:
      "Returns where a background task is: its delegate's calls so far, or its report once it ended.",
    input: taskIdInput,
    execute: async (args, exec) => tasks.read(args.task_id, exec.agent?.session),
    presentCall: (args) => ({ title: `Output of task ${args.task_id}`, kind: 'think' }),
    access: () => ({ effect: 'none' }),
  })
}

export function createTaskKillTool(tasks: BackgroundTasks) {
  return defineTool({
    name: 'task_kill',
    description: 'Ends a background task (its delegate stops at once).',
    input: taskIdInput,
    execute: (args, exec) => tasks.kill(args.task_id, exec.agent?.session),
    presentCall: (args) => ({ title: `Kill task ${args.task_id}`, kind: 'think' }),
    access: () => ({ effect: 'none' }),
  })
}
