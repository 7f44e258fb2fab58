// A prompt to a session, run: a slash command the session offers (agent.commands) does what
// it answers — a turn with the message it makes, a reply shown to the person without a turn,
// or a compaction — and any other prompt is a turn with the person's text. A command that fails
// to make its message is told to the person as a reply; the process and the session go on.
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { Agent, SessionCommandAction, TurnEndReason } from '@deepseek-ai/dsh-agent'
import type { AcpPromptImage } from '../wire/prompt-images'

/** Runs `text` for the session; resolves with how its turn (if any) ended. */
export async function runSessionCommand(
  agent: Agent,
  text: string,
  images: readonly AcpPromptImage[],
  send: (update: SessionUpdate) => void,
): Promise<TurnEndReason> {
  const matched = agent.commands.match(text)
  if (matched === undefined) return (await agent.send(text, images)).reason
  let action: SessionCommandAction
  try {
    action = await matched.command.run(matched.text)
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    action = { reply: `The command /${matched.command.name} could not run: ${why}` }
  }
  // The person's own words are kept with the turn, so a replay shows them.
  if ('compact' in action) return (await agent.compact(text.trim())).reason
  if ('prompt' in action) return (await agent.send(action.prompt, [], text.trim())).reason
  send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: action.reply } })
  return 'completed'
}
