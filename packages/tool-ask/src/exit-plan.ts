// The `exit_plan_mode` tool: the model hands over its plan (markdown) and the person reviews
// it. Through the session's `elicit` channel where the client shows forms (approve, and the
// mode to work in, or keep planning with feedback), else through the permission layer: the
// call asks in every mode, its card shows the plan, and allowing it is the approval. Approved,
// the session returns to the mode it had before planning and the plan becomes its plan (the
// list items as entries a `todo` list starts from); not approved, it stays in plan mode.
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolPlanEntry } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'
import type { AskChannel, ElicitForm } from './channel'

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

function reviewForm(plan: string, channel: AskChannel): ElicitForm {
  const before = channel.modeBeforePlan()
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
          oneOf: channel.workModes.map((mode) => ({ const: mode.id, title: mode.name })),
          default: before,
        },
        feedback: { type: 'string', title: 'Feedback for the agent (when planning goes on)' },
      },
      required: ['decision'],
    },
  }
}

function resultText(details: ExitPlanDetails): string {
  if (details.approved) {
    return `The person approved the plan; the session now works in ${details.mode} mode. Start a todo list from the plan and carry it out.`
  }
  const feedback = details.feedback ? ` Their feedback: ${details.feedback}` : ''
  return `The person did not approve the plan, so the session stays in plan mode: revise the plan and present it again with exit_plan_mode.${feedback}`
}

async function review(args: ExitPlanArgs, channel: AskChannel, signal?: AbortSignal) {
  const before = channel.modeBeforePlan()
  if (!channel.elicit) return { approved: true, mode: before }
  const answer = await channel.elicit(reviewForm(args.plan, channel), signal)
  if (answer.action !== 'accept') return { approved: false }
  const { decision, mode, feedback } = answer.content
  const text = typeof feedback === 'string' && feedback.trim() !== '' ? feedback.trim() : undefined
  if (decision !== 'approve') return { approved: false, ...(text && { feedback: text }) }
  const chosen = channel.workModes.find((entry) => entry.id === mode)?.id ?? before
  return { approved: true, mode: chosen }
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
      const outcome: ExitPlanDetails = await review(args, channel, exec.signal)
      if (outcome.approved && outcome.mode) {
        channel.setMode(outcome.mode)
        outcome.entries = planEntries(args.plan)
      }
      return { content: resultText(outcome), details: outcome }
    },
    presentCall: () => ({ title: 'Review the plan', kind: 'think' }),
    presentResult: (args, result) => {
      const details = result.details
      if (result.isError || !details) return undefined
      const title = details.approved ? 'Plan approved' : 'Planning goes on'
      const content = [
        { type: 'text' as const, text: details.approved ? args.plan : resultText(details) },
      ]
      return details.entries && details.entries.length > 0
        ? { title, content, plan: details.entries }
        : { title, content }
    },
    // Without forms, the permission question is the review: while planning the call is asked
    // in every mode, its question shows the plan, and allowing it approves the plan.
    access: () =>
      channel.elicit || channel.mode() !== PLAN_MODE
        ? { effect: 'none' }
        : { effect: 'none', askAlways: true },
    preview: async (args) => [{ type: 'text', text: args.plan }],
  })
}
