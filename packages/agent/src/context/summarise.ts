// The expensive half of a compaction: one model request that summarises the older part of the
// conversation, and the message that opens the conversation after it — the person's first
// message, the summary, and the person's latest message when it was among the summarised
// part — so what the model is sent stays a valid conversation (it opens with a user message,
// and the recent part that follows opens with a model response).
import type { Llm, LlmMessage } from '@deepseek-ai/dsh-llm'
import { estimateTokens } from './tokens'

const SUMMARY_SYSTEM = [
  'You compact a coding session so that it can go on in a smaller context.',
  'Summarise the transcript you are given for the assistant who continues the work:',
  "the person's goals and constraints, decisions made, files read or changed (with paths),",
  'what was learnt from them, errors met, and what remains to be done.',
  'Be factual and dense; use short bullet points; do not invent anything.',
].join(' ')

/** Longest text kept of one message in the transcript. */
const MESSAGE_CHARS = 4000

function clip(text: string, max = MESSAGE_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} characters more]`
}

/** The older conversation as a plain transcript, its oldest lines dropped to fit `maxTokens`. */
export function transcriptOf(messages: readonly LlmMessage[], maxTokens: number): string {
  const lines = messages.map((message) => {
    switch (message.role) {
      case 'user':
        // A source's note (project instructions) is carried whole past the summary anyway.
        if (message.note !== undefined) return `[${message.note} note, carried separately]`
        return `Person: ${clip(message.content)}`
      case 'assistant': {
        const calls = (message.toolCalls ?? []).map(
          (call) => `\n  calls ${call.name} ${clip(call.arguments, 300)}`,
        )
        return `Assistant: ${clip(message.content)}${calls.join('')}`
      }
      case 'tool':
        return `Tool result${message.isError ? ' (error)' : ''}: ${clip(message.content)}`
    }
  })
  let total = 0
  let first = lines.length
  while (first > 0) {
    const cost = estimateTokens(lines[first - 1]!) + 2
    if (total + cost > maxTokens) break
    total += cost
    first -= 1
  }
  const dropped = first > 0 ? `[${first} older entries left out]\n` : ''
  return dropped + lines.slice(first).join('\n')
}

export interface SummaryRequest {
  llm: Llm
  model?: string
  messages: readonly LlmMessage[]
  maxTokens: number
  signal: AbortSignal
}

/** The summary's text and the request's usage; rejects when the model fails or says nothing. */
export async function summarise(request: SummaryRequest): Promise<{
  text: string
  usage?: { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number }
}> {
  const transcript = transcriptOf(request.messages, request.maxTokens)
  let text = ''
  let usage
  for await (const event of request.llm.stream({
    ...(request.model !== undefined && { model: request.model }),
    system: SUMMARY_SYSTEM,
    messages: [{ role: 'user', content: `The session so far:\n\n${transcript}\n\nSummarise it.` }],
    tools: [],
    signal: request.signal,
  })) {
    if (event.type === 'text-delta') text += event.text
    else if (event.type === 'finish') usage = event.usage
  }
  if (text.trim() === '') throw new Error('the model answered the summary request with no text')
  return { text: text.trim(), ...(usage !== undefined && { usage }) }
}

export const SUMMARY_HEADING = '[The earlier conversation, summarised to save context]'

/**
 * The message that opens the conversation after a summary: what the context sources carry (the
 * project's instructions, which stood before the person's first message), the person's first
 * message, the summary, the latest message, and the session's current plan (state a summary
 * must not blur).
 */
export function openingOf(
  first: string | undefined,
  summary: string,
  latest: string | undefined,
  plan?: string,
  sources: { carried?: string | undefined } = {},
): string {
  const lead = sources.carried === undefined ? [] : [sources.carried, '']
  const parts = [...lead, first ?? '', '', SUMMARY_HEADING, summary]
  if (latest !== undefined && latest !== first)
    parts.push('', "[The person's latest message]", latest)
  if (plan !== undefined) parts.push('', '[Your current plan, as you last set it]', plan)
  return parts.join('\n').trimStart()
}
