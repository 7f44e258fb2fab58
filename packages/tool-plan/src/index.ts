// tool-plan: the `todo` tool, with which a model keeps a plan for a task of several steps, and
// its prompt section. A function plugin: what it registers goes away when it is disposed.
// The plan reaches a UI through the result's presentation (`plan`, the tools' neutral field),
// which the ACP bridge sends as a `plan` update; the tool itself keeps no state.
import type { Context } from 'cordis'
import type {} from '@deepseek-ai/dsh-system-prompt' // for its augmentation: ctx.systemPrompt
import type {} from '@deepseek-ai/dsh-tools' // for its augmentation: ctx.tools
import { createTodoTool, todoPrompt } from './todo'

export const name = 'tool-plan'

export const inject = ['tools', 'systemPrompt']

export function apply(ctx: Context): void {
  ctx.tools.register(createTodoTool())
  ctx.systemPrompt.add({ name: 'tool-plan/todo', text: todoPrompt })
}

export { PLAN_ERROR_CODES, PlanError, isPlanError } from './errors'
export type { PlanErrorCode } from './errors'
export { formatPlan, planEntriesOf, planTitle } from './present'
export { todoInput } from './input'
export type { TodoArgs } from './input'
export type { TodoDetails } from './todo'
