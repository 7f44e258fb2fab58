// The `task` tool: a prompt handed to a child session of the call's session (ctx.agents'
// createChild: the parent's workspace, roots, channels, mode and memory; a fresh conversation
// with the delegate's own prompt section). Waited on, its final report is the result; the card
// is `Task: <description>` (kind think); while the child works its content lists each of the
// child's tool calls as it stands, and its result those calls and the report. A cancelled call
// cancels the child; a child that fails gives its failure as the result. In the background the
// call returns an id at once (./background) and its card goes on growing the same way (content
// progress after the result). The child is titled by the description. Nesting: a delegate may
// start tasks of its own, a delegate's delegate may not.
import { Agent } from '@deepseek-ai/dsh-agent'
import type Agents from '@deepseek-ai/dsh-agent'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolExecution, ToolSession, ToolSessionScope } from '@deepseek-ai/dsh-tools'
import { BACKGROUND_LIMITS } from './background'
import type { BackgroundTasks } from './background'
import { TaskError } from './errors'
import type { DelegateLimits } from './explorer'
import { TASK_TYPES, taskInput } from './input'
import type { TaskArgs, TaskType } from './input'
import { loadProjectTypes } from './project-types'
import type { ProjectType } from './project-types'
import { outcomeOf } from './outcome'
import { tellSkippedTypes } from './type-catalog'
import type { TaskDetails, TaskOutcome } from './outcome'
import { delegatePrompt } from './prompts'
import { CallLines } from './report'

export type { TaskDetails } from './outcome'

export interface TaskHost {
  agents(): Agents
  limits: DelegateLimits
  background: BackgroundTasks
  /** The skipped type files each session was told about (`<file>: <problem>`), told once. */
  told: WeakMap<ToolSessionScope, Set<string>>
}

/** The most general (or project-type) delegates of one response that work at once. */
export const DELEGATE_CONCURRENCY = 4

/** How deep delegates nest: the session itself is 0, its delegate 1, that one's delegate 2. */
const MAX_DEPTH = 2

export function createTaskTool(host: TaskHost) {
  return defineTool<typeof taskInput, TaskDetails>({
    name: 'task',
    description:
      'Hands a self-contained task to a delegate in a fresh conversation and returns its report. ' +
      `With run_in_background, at most ${BACKGROUND_LIMITS.session} background tasks run at ` +
      `once in a session (its delegates' included) and ${BACKGROUND_LIMITS.total} in all; ` +
      'past that a start is refused.',
    input: taskInput,
    execute: (args, exec) => runTask(host, args, exec),
    presentCall: (args) => ({
      title: `Task: ${args.description}${args.run_in_background === true ? ' (background)' : ''}`,
      kind: 'think',
    }),
    presentResult(_args, result) {
      const details = result.details
      if (details === undefined) return undefined
      return { content: [{ type: 'text', text: cardTextOf({ details, isError: false }) }] }
    },
    // The task itself touches nothing: each of the child's calls is judged as it comes. An
    // explorer only reads, so explorers run side by side with the reads; other delegates run
    // side by side too, at most DELEGATE_CONCURRENCY at once.
    access: (args, exec) =>
      args.agent_type === 'explorer'
        ? { effect: 'read', scope: [exec.session.header.cwd] }
        : { effect: 'none', concurrency: { group: 'task', limit: DELEGATE_CONCURRENCY } },
  })
}

async function runTask(host: TaskHost, args: TaskArgs, exec: ToolExecution) {
  const parent = exec.agent
  if (!(parent instanceof Agent)) {
    throw new TaskError('TASK_NOT_ALLOWED', 'task needs an agent session to delegate from.')
  }
  const depth = depthOf(host.limits, parent.session)
  if (depth >= MAX_DEPTH) {
    throw new TaskError(
      'TASK_NOT_ALLOWED',
      'A delegate of a delegate cannot start tasks: do this work yourself.',
    )
  }
  const type = await typeOf(host, args.agent_type, parent.session)
  // Checked with no wait before the task is counted (start below): starts cannot race past it.
  if (args.run_in_background) host.background.checkRoom(parent.session)
  const builtIn = type === 'general' || type === 'explorer'
  const child = host.agents().createChild(parent, {
    systemPrompt: builtIn ? delegatePrompt(type) : `${delegatePrompt('general')}\n\n${type.prompt}`,
    parentCallId: exec.callId,
    title: args.description,
  })
  const { explorers, allowedTools, depths } = host.limits
  depths.set(child.session, depth + 1)
  if (type === 'explorer' || explorers.has(parent.session)) explorers.add(child.session)
  const allowed =
    !builtIn && type.tools !== undefined ? new Set(type.tools) : allowedTools.get(parent.session)
  if (allowed !== undefined) allowedTools.set(child.session, allowed)
  const lines = new CallLines()
  if (args.run_in_background) {
    // The card grows after the call returned, as a waited one does: a line per call of the
    // child as it stands, then the report.
    child.subscribe((event) => {
      if (lines.update(event)) exec.report?.({ type: 'content', text: lines.lines().join('\n') })
    })
    const spec = { description: args.description, prompt: args.prompt, lines }
    const id = host.background.start(exec.callId, parent, child, spec, (end) => {
      const outcome = outcomeOf(child, args.agent_type, lines.lines(), end)
      exec.report?.({ type: 'content', text: cardTextOf(outcome) })
      return outcome
    })
    return (
      `Started background task ${id}. Its report comes to you when it is done; ` +
      `job_output { "job_id": "${id}" } shows where it is; job_kill { "job_id": "${id}" } ends it.`
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

/**
 * The type `name` names: a built-in one, or the project's (read now from the session's
 * workspace); each type file skipped is told to the person once per root session.
 */
async function typeOf(
  host: TaskHost,
  name: string,
  session: ToolSession,
): Promise<TaskType | ProjectType> {
  if ((TASK_TYPES as readonly string[]).includes(name)) return name as TaskType
  const project = await loadProjectTypes(session.header.cwd)
  tellSkippedTypes(host.told, session.scope, project)
  const type = project.types.find((known) => known.name === name)
  if (type !== undefined) return type
  const known = [
    'general (may do what the session may)',
    'explorer (only reads)',
    ...project.types.map((t) => `${t.name} (${t.description})`),
  ]
  const skipped = project.skipped.map(({ file, problem }) => `\n${file} was skipped: ${problem}.`)
  throw new TaskError(
    'TASK_UNKNOWN_TYPE',
    `There is no delegate type "${name}"; use one of: ${known.join(', ')}.${skipped.join('')}`,
  )
}

/**
 * The finished card's text: the delegate's calls, then its report (for a background task that
 * did not finish, why, with its last words).
 */
function cardTextOf(outcome: Pick<TaskOutcome, 'details' | 'isError'> & { content?: string }) {
  const { details } = outcome
  const lines = details.calls.length === 0 ? '' : `${details.calls.join('\n')}\n\n`
  const end = outcome.isError && outcome.content !== undefined ? outcome.content : details.report
  return `${lines}${end}`
}

/** How deep `session` is below its root: as its task recorded it, else 1 for any child. */
function depthOf(limits: DelegateLimits, session: ToolSession): number {
  return limits.depths.get(session) ?? (session.header.parent === undefined ? 0 : 1)
}
