// What the command tests share: a script of one bash call a turn, the text blocks of a card
// update, and the last update of a call's card.
import type { SessionUpdate } from '@agentclientprotocol/sdk'

/** A script whose turns each call bash once (a command, or the whole arguments), then answers. */
export function bashTurns(...commands: (string | Record<string, unknown>)[]) {
  return {
    turns: [
      ...commands.map((command, index) => ({
        toolCalls: [
          {
            id: `b${index + 1}`,
            name: 'bash',
            arguments: typeof command === 'string' ? { command } : command,
          },
        ],
      })),
      { text: 'Ran them.' },
    ],
  }
}

/** The text blocks of a card's update; none for any other update. */
export function textsOf(update: SessionUpdate | undefined): string[] {
  if (update?.sessionUpdate !== 'tool_call' && update?.sessionUpdate !== 'tool_call_update')
    return []
  return (update.content ?? []).flatMap((block) =>
    block.type === 'content' && block.content.type === 'text' ? [block.content.text] : [],
  )
}

/** The last `tool_call_update` of call `id`. */
export const lastOf = (updates: SessionUpdate[], id: string) =>
  updates.filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === id).at(-1)
