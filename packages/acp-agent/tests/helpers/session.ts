// Drives a started bin through one prompt with the SDK's client, then closes its stdin.
import * as acp from '@agentclientprotocol/sdk'
import type { BinSession } from './spawn-bin'

export interface SessionRun {
  updates: acp.SessionUpdate[]
  stopReason: string
  exitCode: number | null
  lines: string[]
  bin: BinSession
}

/** initialize, session/new on `workspace`, one prompt; then closes stdin and waits for exit. */
export async function promptOnce(
  bin: BinSession,
  workspace: string,
  text: string,
): Promise<SessionRun> {
  const updates: acp.SessionUpdate[] = []
  const stopReason = await acp
    .client()
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params.update)
    })
    .connectWith(bin.stream, async (agent) => {
      await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      })
      const session = await agent.request(acp.methods.agent.session.new, {
        cwd: workspace,
        mcpServers: [],
      })
      const response = await agent.request(acp.methods.agent.session.prompt, {
        sessionId: session.sessionId,
        prompt: [{ type: 'text', text }],
      })
      return response.stopReason
    })
  if (!bin.child.stdin.writableEnded) bin.child.stdin.end()
  const exitCode = await bin.exited
  const lines = bin.agentText().split('\n')
  return { updates, stopReason, exitCode, lines, bin }
}

export function toolUpdates(updates: acp.SessionUpdate[]) {
  return updates.flatMap((update) =>
    update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update'
      ? [update]
      : [],
  )
}

/** The agent's message text of a run, joined. */
export function messageText(updates: acp.SessionUpdate[]): string {
  return updates
    .flatMap((update) =>
      update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
        ? [update.content.text]
        : [],
    )
    .join('')
}
