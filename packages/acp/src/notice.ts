// A notice: something the person should know that is not part of the conversation, and the
// update it goes out as. Pure.
import type { SessionUpdate } from '@agentclientprotocol/sdk'

/** Something the person should know that is not part of the conversation (not stored). */
export interface AcpNotice {
  /** Plain text that stands alone. */
  title: string
  /** More detail, as plain text. */
  description?: string
  severity?: 'info' | 'warning' | 'error'
}

/** The update a notice goes out as: a `notice` when the client shows them, else a message. */
export function toAcpNotice(notice: AcpNotice, notices: boolean): SessionUpdate {
  const { title, description, severity = 'info' } = notice
  if (notices) {
    return {
      sessionUpdate: 'notice',
      severity,
      title,
      ...(description !== undefined && { description }),
    }
  }
  const text = description === undefined ? title : `${title}\n\n${description}`
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${text}\n\n` } }
}
