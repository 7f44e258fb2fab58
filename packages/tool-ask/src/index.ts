// tool-ask: `ask_user` (questions to the person through a form) and `exit_plan_mode` (a plan
// put to the person's review), registered for one session at a time with that session's
// channel (./channel): a session whose client shows no forms never sees `ask_user`.
import type ToolRegistry from '@deepseek-ai/dsh-tools'
import { createAskUserTool } from './ask-user'
import type { AskChannel } from './channel'
import { createExitPlanTool } from './exit-plan'

/** Registers the ask tools for session `session`; the returned function removes them. */
export function registerAskTools(
  tools: Pick<ToolRegistry, 'register'>,
  session: string,
  channel: AskChannel,
): () => void {
  const removers = [tools.register(createExitPlanTool(channel), { session })]
  if (channel.elicit) removers.push(tools.register(createAskUserTool(channel.elicit), { session }))
  return () => removers.forEach((remove) => remove())
}

export { askForm, askUserInput, answersOf, createAskUserTool } from './ask-user'
export type { AskUserArgs, AskUserDetails } from './ask-user'
export { PLAN_MODE, createExitPlanTool, exitPlanInput, planEntries } from './exit-plan'
export type { ExitPlanArgs, ExitPlanDetails } from './exit-plan'
export type * from './channel'
