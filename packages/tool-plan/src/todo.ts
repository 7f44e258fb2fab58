// The `todo` tool: the model's plan for a task of several steps, sent whole each time (it
// replaces the list before, as ACP's `plan` does). It keeps no state: the session log holds
// every list, and the latest is the plan. At most one item may be `in_progress`.
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolPlanEntry } from '@deepseek-ai/dsh-tools'
import { PlanError } from './errors'
import { todoInput } from './input'
import { formatPlan, planEntriesOf, presentTodoCall, presentTodoResult } from './present'

/** `details` of a todo call: the plan as set, priorities filled in. */
export interface TodoDetails {
  todos: ToolPlanEntry[]
}

export const todoPrompt = `## Keeping a plan (todo)
- For a task of three or more distinct steps, call \`todo\` before starting, with every step,
  and again each time a step starts or ends. Skip it for a one- or two-step task or a question.
- Each call sends the whole list and replaces the one before; the person follows it.
- While work remains, exactly one item is \`in_progress\`. Mark an item \`completed\` as soon
  as it is done (not all at the end), and set the next one \`in_progress\` in the same call.
- Add steps you discover and drop the ones that no longer apply.`

export function createTodoTool() {
  return defineTool<typeof todoInput, TodoDetails>({
    name: 'todo',
    description:
      'Set the plan for a task of several steps: the whole list, each item pending, in_progress or completed. Replaces the previous list.',
    input: todoInput,
    execute: async (args) => {
      const running = args.todos.filter((todo) => todo.status === 'in_progress')
      if (running.length > 1) {
        const names = running.map((todo) => JSON.stringify(todo.content)).join(', ')
        throw new PlanError(
          'PLAN_SEVERAL_IN_PROGRESS',
          `${running.length} items are in_progress (${names}); work on one at a time: send the list again with exactly one in_progress and the others pending or completed.`,
        )
      }
      return { content: formatPlan(args), details: { todos: planEntriesOf(args) } }
    },
    presentCall: presentTodoCall,
    // The plan lives in the agent: the call touches nothing outside it, so it runs in every mode.
    access: () => ({ effect: 'none' }),
    presentResult: presentTodoResult,
  })
}
