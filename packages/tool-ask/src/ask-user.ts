// The `ask_user` tool: one or more questions to the person in one form, each with options (the
// recommended one first), multi-select where it fits, and a free answer. The form goes out
// through the session's `elicit` channel; the chosen options' labels come back to the model.
// Decline and cancel come back as such. Offered only to a session whose client shows forms.
import { defineTool } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'
import type { Elicit, ElicitField, ElicitForm } from './channel'

export const askUserInput = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(1).describe('The question, as a person reads it'),
        options: z
          .array(
            z.object({
              label: z.string().min(1).describe('The answer, short'),
              description: z.string().optional().describe('What choosing it means'),
            }),
          )
          .min(1)
          .max(8)
          .describe('The answers to choose from, the recommended one first'),
        multiSelect: z.boolean().optional().describe('Several answers may be chosen'),
        allowOther: z.boolean().optional().describe('A free answer is offered too (default true)'),
      }),
    )
    .min(1)
    .max(4),
})

export type AskUserArgs = z.infer<typeof askUserInput>

/** What the person answered, question by question (`details` of a call). */
export interface AskUserDetails {
  action: 'accept' | 'decline' | 'cancel'
  answers?: { question: string; chosen: string[]; other?: string }[]
}

/** The form of a call: per question a choice field, and a text field for a free answer. */
export function askForm(args: AskUserArgs): ElicitForm {
  const properties: Record<string, ElicitField> = {}
  const required: string[] = []
  args.questions.forEach((question, index) => {
    const choices = question.options.map((option) => ({
      const: option.label,
      title: option.description ? `${option.label}: ${option.description}` : option.label,
    }))
    const id = `q${index + 1}`
    properties[id] = question.multiSelect
      ? { type: 'array', title: question.question, items: { anyOf: choices } }
      : { type: 'string', title: question.question, oneOf: choices, default: choices[0]!.const }
    if (!question.multiSelect) required.push(id)
    if (question.allowOther !== false) {
      properties[`${id}_other`] = {
        type: 'string',
        title: 'Or in your own words',
        description: `A free answer to: ${question.question}`,
      }
    }
  })
  const message =
    args.questions.length === 1 ? args.questions[0]!.question : 'The agent has questions for you.'
  return { message, requestedSchema: { type: 'object', properties, required } }
}

/** The answers read from an accepted form, question by question. */
export function answersOf(args: AskUserArgs, content: Record<string, unknown>) {
  return args.questions.map((question, index) => {
    const value = content[`q${index + 1}`]
    const chosen = Array.isArray(value)
      ? value.filter((entry): entry is string => typeof entry === 'string')
      : typeof value === 'string' && value !== ''
        ? [value]
        : []
    const other = content[`q${index + 1}_other`]
    return {
      question: question.question,
      chosen,
      ...(typeof other === 'string' && other.trim() !== '' && { other: other.trim() }),
    }
  })
}

function answerText(details: AskUserDetails): string {
  if (details.action === 'decline')
    return 'The person declined to answer. Decide without it, or ask in your reply.'
  if (details.action === 'cancel') return 'The person cancelled the question without answering.'
  const lines = (details.answers ?? []).map((answer) => {
    const chosen = answer.chosen.length > 0 ? answer.chosen.join(', ') : '(no option chosen)'
    return `- ${answer.question} → ${chosen}${answer.other ? `; in their words: ${answer.other}` : ''}`
  })
  return ['The person answered:', ...lines].join('\n')
}

export function createAskUserTool(elicit: Elicit) {
  return defineTool<typeof askUserInput, AskUserDetails>({
    name: 'ask_user',
    description:
      'Ask the person one or more questions in one form, each with options (the recommended first); returns the chosen labels.',
    input: askUserInput,
    execute: async (args, exec) => {
      const answer = await elicit(askForm(args), exec.signal, exec.callId)
      const details: AskUserDetails =
        answer.action === 'accept'
          ? { action: 'accept', answers: answersOf(args, answer.content) }
          : { action: answer.action }
      return { content: answerText(details), details }
    },
    presentCall: (args) => ({ title: args.questions[0]!.question, kind: 'think' }),
    presentResult: (args, result) => ({
      title: args.questions[0]!.question,
      content: [{ type: 'text', text: result.details ? answerText(result.details) : '' }],
    }),
    access: () => ({ effect: 'none' }),
  })
}
