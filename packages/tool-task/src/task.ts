// The `task` tool: a prompt handed to a child session of the call's session (ctx.agents'
// createChild: the parent's workspace, roots, channels, mode and memory; a fresh conversation
// with the delegate's own prompt section), waited on; its final report is the result. The card
// is `Task: <description>` (kind think); while the child works its content lists each of the
// child's tool calls as it stands, and its result those calls and the report. A cancelled call cancels the child; a child that fails gives its failure as the result.
// Nesting: a delegate may start tasks of its own, a delegate's delegate may not.
import { Agent } from '@deepseek-ai/dsh-agent'
import type Agents from '@deepseek-ai/dsh-agent'
import { defineTool, fencedBlock } from '@deepseek-ai/dsh-tools'
import type { ToolExecution, ToolSession } from '@deepseek-ai/dsh-tools'
import { TaskError } from './errors'
import { taskInput } from './input'
import type { TaskArgs, TaskType } from './input'
import { delegatePrompt } from './prompts'
import { CallLines, reportOf } from './report'

/** What a finished task carries for its card. */
export interface TaskDetails {
  type: TaskType
  /** The child session's id. */
  session: string
  /** One line per tool call of the child: its title and how it ended. */
  calls: string[]
  report: string
  reason: string
}

export interface TaskHost {
  agents(): Agents
  /** The sessions of explorers (and of their delegates): their changes are refused. */
  explorers: WeakSet<ToolSession>
}

/** How deep delegates nest: the session itself is 0, its delegate 1, that one's delegate 2. */
const MAX_DEPTH = 2

export function createTaskTool(host: TaskHost) {
  return defineTool<typeof taskInput, TaskDetails>({
    name: 'task',
    description:
      'Hands a self-contained task to a delegate in a fresh conversation and returns its report.',
    input: taskInput,
    execute: (args, exec) => runTask(host, args, exec),
    presentCall: (args) => ({ title: `Task: ${args.description}`, kind: 'think' }),
    presentResult(_args, result) {
      const details = result.details
      if (details === undefined) return undefined
      const lines = details.calls.length === 0 ? '' : `${details.calls.join('\n')}\n\n`
      return { content: [{ type: 'text', text: `${lines}${details.report}` }] }
    },
    // The task itself touches nothing: each of the child's calls is judged as it comes. An
    // explorer only reads, so explorers run side by side.
    access: (args, exec) =>
      args.agent_type === 'explorer'
        ? { effect: 'read', scope: [exec.agent?.session.header.cwd ?? '/'] }
        : { effect: 'none' },
  })
}

async function runTask(host: TaskHost, args: TaskArgs, exec: ToolExecution) {
  const parent = exec.agent
  if (!(parent instanceof Agent)) {
    throw new TaskError('TASK_NOT_ALLOWED', 'task needs an agent session to delegate from.')
  }
  if (depthOf(parent.session) >= MAX_DEPTH) {
    throw new TaskError(
      'TASK_NOT_ALLOWED',
      'A delegate of a delegate cannot start tasks: do this work yourself.',
    )
  }
  const child = host.agents().createChild(parent, {
    systemPrompt: delegatePrompt(args.agent_type),
    parentCallId: exec.callId,
  })
  if (args.agent_type === 'explorer' || host.explorers.has(parent.session)) {
    host.explorers.add(child.session)
  }
  const cancel = () => child.cancel()
  exec.signal?.addEventListener('abort', cancel, { once: true })
  // The card grows as the child works: a line per call of the child, as it stands.
  const lines = new CallLines()
  const unsubscribe = child.subscribe((event) => {
    if (lines.update(event)) exec.report?.({ type: 'content', text: lines.lines().join('\n') })
  })
  try {
    const end = await child.send(args.prompt)
    const details: TaskDetails = {
      type: args.agent_type,
      session: child.session.header.id,
      calls: lines.lines(),
      report: reportOf(child.session.events),
      reason: end.reason,
    }
    if (end.reason === 'completed') {
      return { content: details.report || '(the delegate ended without a report)', details }
    }
    const why = end.reason === 'error' && end.error !== undefined ? `: ${end.error}` : ''
    const partial =
      details.report === '' ? '' : `\nIts last words:\n${fencedBlock(details.report, '')}`
    const content = `The delegate did not finish (${end.reason}${why}).${partial}`
    return { content, details, isError: true }
  } finally {
    unsubscribe()
    exec.signal?.removeEventListener('abort', cancel)
    await child.dispose()
  }
}

function depthOf(session: ToolSession): number {
  let depth = 0
  for (let at = session.parent; at !== undefined; at = at.parent) depth += 1
  return depth
}
