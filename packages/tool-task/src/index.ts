// tool-task: the `task` tool, with which a model hands a self-contained task to a delegate (a
// child session of its own: ctx.agents.createChild) and gets its report back, and its prompt
// section. An explorer delegate only reads (./explorer); background tasks are provided into
// ctx.jobs, whose `job_output` and `job_kill` read and end them (./background), whenever that
// service is loaded. A function plugin: what it registers goes away when it is disposed.
import type { Context } from 'cordis'
import type {} from '@deepseek-ai/dsh-agent' // for its augmentation: ctx.agents
import type {} from '@deepseek-ai/dsh-jobs' // for its augmentation: ctx.jobs
import type {} from '@deepseek-ai/dsh-system-prompt' // for its augmentation: ctx.systemPrompt
import { untraced } from '@deepseek-ai/dsh-tools'
import type { ToolSession, ToolSessionScope } from '@deepseek-ai/dsh-tools'
import { guardDelegate } from './explorer'
import { taskPrompt } from './prompts'
import { createTaskTool } from './task'
import { BackgroundTasks } from './background'
import { TypeCatalogs, tellSkippedTypes } from './type-catalog'

export const name = 'tool-task'

export const inject = ['tools', 'systemPrompt', 'agents']

export function apply(ctx: Context): void {
  const limits = {
    explorers: new WeakSet<ToolSession>(),
    allowedTools: new WeakMap<ToolSession, ReadonlySet<string>>(),
    depths: new WeakMap<ToolSession, number>(),
  }
  const background = new BackgroundTasks()
  const told = new WeakMap<ToolSessionScope, Set<string>>()
  ctx.tools.register(
    createTaskTool({ agents: () => untraced(ctx.agents), limits, background, told }),
  )
  ctx.inject(['jobs'], (inner) => void inner.jobs.provide(background))
  ctx.systemPrompt.add({ name: 'tool-task/task', text: taskPrompt })
  // The project's types, listed to each session's model before its requests (./type-catalog).
  const catalogs = new TypeCatalogs({
    addSection: (text, session) =>
      ctx.systemPrompt.add({ name: 'tool-task/types', text, order: 910 }, { session }),
    tellSkipped: (session, project) => tellSkippedTypes(told, session, project),
  })
  ctx.agents.addContextSource({
    name: 'tool-task/types',
    notes: async (agent) => {
      await catalogs.refresh(agent)
      return []
    },
  })
  ctx.effect(() => () => catalogs.clear(), 'delegate type catalogs')
  const tools = untraced(ctx.tools)
  // Prepended, and loaded after the permission layer: a delegate's call beyond its limits is
  // refused before anybody is asked about it.
  ctx.on('tools/execute', (exec, next) => guardDelegate(tools, limits, exec, next), {
    prepend: true,
  })
}

export { TASK_ERROR_CODES, TaskError } from './errors'
export type { TaskErrorCode } from './errors'
export { TASK_TYPES, taskInput } from './input'
export type { TaskArgs, TaskType } from './input'
export type { TaskDetails } from './task'
export { loadProjectTypes, parseProjectType } from './project-types'
export { TYPE_CATALOG_LIMITS, typeCatalogText } from './type-catalog'
export type { ProjectType, ProjectTypes } from './project-types'
