// How a plan reads: the card's title ("Update plan (2 of 5 done)"), the entries a UI shows as
// the session's plan (priority filled in), and the text the model gets back. Pure: no Cordis,
// no I/O; the presenters never throw.
import type {
  ToolCallPresentation,
  ToolPlanEntry,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'
import type { TodoArgs } from './input'

/** The list as a UI shows it: every entry with its priority (`medium` when not given). */
export function planEntriesOf(args: TodoArgs): ToolPlanEntry[] {
  return args.todos.map(({ content, status, priority }) => ({
    content,
    status,
    priority: priority ?? 'medium',
  }))
}

/** `Update plan (N of M done)`; `Clear plan` for an empty list. */
export function planTitle(args: TodoArgs): string {
  const total = args.todos.length
  if (total === 0) return 'Clear plan'
  const done = args.todos.filter((todo) => todo.status === 'completed').length
  return `Update plan (${done} of ${total} done)`
}

const MARKS: Record<ToolPlanEntry['status'], string> = {
  completed: '[x]',
  in_progress: '[>]',
  pending: '[ ]',
}

/** What the model reads back: the count, then one line per item (priority when not medium). */
export function formatPlan(args: TodoArgs): string {
  if (args.todos.length === 0) return 'Plan cleared: no items.'
  const done = args.todos.filter((todo) => todo.status === 'completed').length
  const lines = planEntriesOf(args).map(({ content, status, priority }) => {
    const weight = priority === 'medium' ? '' : ` (${priority} priority)`
    return `${MARKS[status]} ${content}${weight}`
  })
  const legend = '[x] completed, [>] in progress, [ ] pending'
  return [`Plan updated: ${done} of ${args.todos.length} done (${legend}).`, ...lines].join('\n')
}

/**
 * A compact card: kind `think`, the count in the title, nothing else; `quiet`: a UI that shows
 * the plan draws no card for a call that sets it (the plan is what the person follows).
 */
export function presentTodoCall(args: TodoArgs): ToolCallPresentation {
  return { title: planTitle(args), kind: 'think', quiet: true }
}

/** The list the call set, as the session's plan; a failed call shows its error as usual. */
export function presentTodoResult(
  args: TodoArgs,
  result: ToolResultView,
): ToolResultPresentation | undefined {
  if (result.isError) return undefined
  return { title: planTitle(args), plan: planEntriesOf(args) }
}
