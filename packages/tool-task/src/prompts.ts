// The words of delegation: the task tool's prompt section for the model that delegates, and the
// system prompt section of the child session, which says it is a delegate and must end with a
// report (per type).
import type { TaskType } from './input'

export const taskPrompt = [
  'Use `task` to hand a self-contained piece of work to a delegate that works in a fresh',
  'conversation in the same workspace and reports back: exploring a large codebase without',
  'filling this conversation, or independent work. Its `prompt` must say everything the',
  'delegate needs (it sees nothing of this conversation) and what its report should hold.',
  'Use `agent_type: "explorer"` for a delegate that only reads and searches. Several tasks in',
  'one response run side by side (at most 8 explorers and 4 others at once; more wait their',
  'turn), so give delegates that change files different files. The result is the',
  "delegate's final report; check what matters before you rely on it.",
  'With `run_in_background: true` the call returns a task id at once and the report comes to',
  'you when the delegate is done; `job_output` shows where it is, `job_kill` ends it.',
].join('\n')

const DELEGATE = [
  'You are a delegate: another agent gave you the task below and waits for your report.',
  'Work on it with your tools, then end with a report: what you found or did, with the files',
  'and lines that matter. The report is your last message; nobody else reads your work.',
]

const EXPLORER = [
  'You only read: read files, search, and run commands that change nothing. Any change you',
  'attempt is refused.',
]

/** The child session's system prompt section for a delegate of `type`. */
export function delegatePrompt(type: TaskType): string {
  return [...DELEGATE, ...(type === 'explorer' ? EXPLORER : [])].join('\n')
}
