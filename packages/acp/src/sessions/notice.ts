// A notice: something the person should know that is not part of the conversation, and the
// update it goes out as. A client without `session.notices` gets an agent message marked as
// dsh's own: a quoted block whose first line starts `dsh:`, apart from the model's words
// before and after. Not a thought chunk: clients fold thoughts away (Zed collapses them once
// the answer goes on) and join them with the model's reasoning, and a sandbox or model notice
// must be read. Pure.
import type { SessionUpdate } from '@agentclientprotocol/sdk'

/** Something the person should know that is not part of the conversation (not stored). */
export interface AcpNotice {
  /** Plain text that stands alone. */
  title: string
  /** More detail, as plain text. */
  description?: string
  severity?: 'info' | 'warning' | 'error'
}

/** How a notice's message starts for a client without notices: dsh speaking, not the model. */
export const NOTICE_PREFIX = 'dsh: '

/**
 * The update a notice goes out as: a `notice` when the client shows them, else an agent
 * message set apart as a quoted block that starts with NOTICE_PREFIX.
 */
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
  const quoted = `${NOTICE_PREFIX}${text}`
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n')
  return {
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'text', text: `\n\n${quoted}\n\n` },
  }
}
