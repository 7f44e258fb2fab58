// The `exit_plan_mode` tool: the model hands over its plan (markdown) and the person reviews
// it. Through the session's `elicit` channel where the client shows forms (approve, and the
// mode to work in, or keep planning with feedback), else through the permission layer: the
// call asks in every mode, its card shows the plan, and its options name where each goes
// ("Approve, ask before changes", "Approve, allow edits", "Keep planning"). Approved, the
// session works in the mode picked (default: the one it had before planning, when that mode
// lets the plan's work run; else the first work mode, never read-only) and the plan becomes
// its plan (the list items as entries a `todo` list starts from); not approved, it stays in
// plan mode.
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolExecution, ToolPermissionOption, ToolPlanEntry } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'
import type { AskChannel, AskWorkMode, ElicitForm } from './channel'

export const exitPlanInput = z.object({
  plan: z.string().min(1).describe('The plan, in markdown: the steps, the files, the checks'),
})

export type ExitPlanArgs = z.infer<typeof exitPlanInput>

/** `details` of a call: what the person decided. */
export interface ExitPlanDetails {
  approved: boolean
  /** The mode the session works in after an approval. */
  mode?: string
  feedback?: string
  entries?: ToolPlanEntry[]
}

export const PLAN_MODE = 'plan'

/** The list items of a markdown plan, as the entries of the session's plan. */
export function planEntries(plan: string): ToolPlanEntry[] {
  return plan.split('\n').flatMap((line) => {
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.+)$/.exec(line)?.[1]?.trim()
    return item ? [{ content: item, status: 'pending' as const, priority: 'medium' as const }] : []
  })
}

/** The option id of "Keep planning" in the permission question. */
const KEEP = 'keep'
const APPROVE = 'approve:'

/** The mode an approval goes on in by default: the one before planning, if it is a work mode. */
function defaultWorkMode(channel: AskChannel): string {
  const before = channel.modeBeforePlan()
  return channel.workModes.some((mode) => mode.id === before)
    ? before
    : (channel.workModes[0]?.id ?? before)
}

/** The work modes offered: the default first, full access only where the session had it. */
function offeredModes(channel: AskChannel): AskWorkMode[] {
  const before = channel.modeBeforePlan()
  const first = defaultWorkMode(channel)
  const offered = channel.workModes.filter((mode) => !mode.onlyIfBefore || mode.id === before)
  return [
    ...offered.filter((mode) => mode.id === first),
    ...offered.filter((mode) => mode.id !== first),
  ]
}

/** The permission question's options: each approval names its mode, then keep planning. */
export function reviewChoices(channel: AskChannel): ToolPermissionOption[] {
  return [
    ...offeredModes(channel).map((mode) => ({
      optionId: `${APPROVE}${mode.id}`,
      kind: 'allow_once' as const,
      name: mode.approve,
    })),
    { optionId: KEEP, kind: 'reject_once', name: 'Keep planning' },
  ]
}

function reviewForm(plan: string, channel: AskChannel): ElicitForm {
  return {
    message: `Review the plan before any change is made:\n\n${plan}`,
    requestedSchema: {
      type: 'object',
      properties: {
        decision: {
          type: 'string',
          title: 'The plan',
          oneOf: [
            { const: 'approve', title: 'Approve and start' },
            { const: 'keep', title: 'Keep planning' },
          ],
          default: 'approve',
        },
        mode: {
          type: 'string',
          title: 'Then work in',
          oneOf: offeredModes(channel).map((mode) => ({ const: mode.id, title: mode.name })),
          default: defaultWorkMode(channel),
        },
        feedback: { type: 'string', title: 'Feedback for the agent (when planning goes on)' },
      },
      required: ['decision'],
    },
  }
}

function resultText(details: ExitPlanDetails, channel: AskChannel): string {
  if (details.approved) {
    const name = channel.workModes.find((mode) => mode.id === details.mode)?.name ?? details.mode
    return `The person approved the plan; the session now works in the "${name}" mode. Start a todo list from the plan and carry it out.`
  }
  const feedback = details.feedback ? ` Their feedback: ${details.feedback}` : ''
  return `The person did not approve the plan, so the session stays in plan mode: revise the plan and present it again with exit_plan_mode.${feedback}`
}

/** What the person picked in the permission question (`choice`), or nothing asked: approved. */
function reviewed(channel: AskChannel, choice: string | undefined): ExitPlanDetails {
  if (choice === KEEP) return { approved: false }
  const picked = choice?.startsWith(APPROVE) === true ? choice.slice(APPROVE.length) : undefined
  const mode = offeredModes(channel).find((entry) => entry.id === picked)?.id
  return { approved: true, mode: mode ?? defaultWorkMode(channel) }
}

async function review(
  args: ExitPlanArgs,
  channel: AskChannel,
  exec: ToolExecution,
): Promise<ExitPlanDetails> {
  if (!channel.elicit) return reviewed(channel, exec.choice)
  const signal = exec.signal
  const answer = await channel.elicit(reviewForm(args.plan, channel), signal, exec.callId)
  if (answer.action !== 'accept') return { approved: false }
  const { decision, mode, feedback } = answer.content
  const text = typeof feedback === 'string' && feedback.trim() !== '' ? feedback.trim() : undefined
  if (decision !== 'approve') return { approved: false, ...(text && { feedback: text }) }
  const chosen = offeredModes(channel).find((entry) => entry.id === mode)?.id
  return { approved: true, mode: chosen ?? defaultWorkMode(channel) }
}

export function createExitPlanTool(channel: AskChannel) {
  return defineTool<typeof exitPlanInput, ExitPlanDetails>({
    name: 'exit_plan_mode',
    description:
      'In plan mode: present the plan (markdown) for the person to review; approved, the session leaves plan mode.',
    input: exitPlanInput,
    execute: async (args, exec) => {
      if (channel.mode() !== PLAN_MODE) {
        return 'The session is not in plan mode; go on with the task.'
      }
      const outcome = await review(args, channel, exec)
      if (outcome.approved && outcome.mode) {
        channel.setMode(outcome.mode)
        outcome.entries = planEntries(args.plan)
      }
      return { content: resultText(outcome, channel), details: outcome }
    },
    presentCall: () => ({ title: 'Review the plan', kind: 'think' }),
    presentResult: (args, result) => {
      const details = result.details
      if (result.isError || !details) return undefined
      const title = details.approved ? 'Plan approved' : 'Planning goes on'
      const content = [
        {
          type: 'text' as const,
          text: details.approved ? args.plan : resultText(details, channel),
        },
      ]
      return details.entries && details.entries.length > 0
        ? { title, content, plan: details.entries }
        : { title, content }
    },
    // Without forms, the permission question is the review: while planning the call is asked
    // in every mode, its question shows the plan, and its options say where each goes.
    access: () =>
      channel.elicit || channel.mode() !== PLAN_MODE
        ? { effect: 'none' }
        : { effect: 'none', askAlways: true, choices: reviewChoices(channel) },
    preview: async (args) => [{ type: 'text', text: args.plan }],
  })
}
