// The `task` tool: a prompt handed to a child session of the call's session (ctx.agents'
// createChild: the parent's workspace, roots, channels, mode and memory; a fresh conversation
// with the delegate's own prompt section). Waited on, its final report is the result; the card
// is `Task: <description>` (kind think); while the child works its content lists each of the
// child's tool calls as it stands, and its result those calls and the report. A cancelled call
// cancels the child; a child that fails gives its failure as the result. In the background the
// call returns an id at once (./background). Nesting: a delegate may start tasks of its own, a
// delegate's delegate may not.
import { Agent } from '@deepseek-ai/dsh-agent'
import type Agents from '@deepseek-ai/dsh-agent'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolExecution, ToolSession } from '@deepseek-ai/dsh-tools'
import type { BackgroundTasks } from './background'
import { TaskError } from './errors'
import { taskInput } from './input'
import type { TaskArgs } from './input'
import { outcomeOf } from './outcome'
import type { TaskDetails } from './outcome'
import { delegatePrompt } from './prompts'
import { CallLines } from './report'

export type { TaskDetails } from './outcome'

export interface TaskHost {
  agents(): Agents
  /** The sessions of explorers (and of their delegates): their changes are refused. */
  explorers: WeakSet<ToolSession>
  background: BackgroundTasks
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
    presentCall: (args) => ({
      title: `Task: ${args.description}${args.run_in_background === true ? ' (background)' : ''}`,
      kind: 'think',
    }),
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
  const lines = new CallLines()
  if (args.run_in_background) {
    child.subscribe((event) => lines.update(event))
    const spec = { description: args.description, prompt: args.prompt, lines }
    const id = host.background.start(exec.callId, parent, child, spec, (end) =>
      outcomeOf(child, args.agent_type, lines.lines(), end),
    )
    return (
      `Started background task ${id}. Its report comes to you when it is done; ` +
      `task_output { "task_id": "${id}" } shows where it is; task_kill { "task_id": "${id}" } ends it.`
    )
  }
  const cancel = () => child.cancel()
  exec.signal?.addEventListener('abort', cancel, { once: true })
  // The card grows as the child works: a line per call of the child, as it stands.
  const unsubscribe = child.subscribe((event) => {
    if (lines.update(event)) exec.report?.({ type: 'content', text: lines.lines().join('\n') })
  })
  try {
    const end = await child.send(args.prompt)
    return outcomeOf(child, args.agent_type, lines.lines(), end)
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
