// What the client shows of a session besides its updates: `session_info_update` with its title
// when the first message arrives (the agent host's title rule, `sessionTitleOf`, the one the
// stored listing uses), its last activity when each turn ends, and, for a loaded session, its
// stored title once after the replay. Replayed turns send no activity: they happened before.
// Pure bookkeeping: it returns updates and never sends them.
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { SessionEvent, SessionHeader } from '@deepseek-ai/dsh-agent'

export class SessionInfoUpdates {
  /** The title the client was last sent. */
  private sentTitle: string | undefined

  constructor(
    private readonly header: SessionHeader,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The updates a live event brings: the title when it is new, the time at a turn's end. */
  onLive(event: SessionEvent): SessionUpdate[] {
    if (event.type === 'user/message') return this.titleUpdate()
    if (event.type === 'turn/end') {
      return [{ sessionUpdate: 'session_info_update', updatedAt: this.now().toISOString() }]
    }
    return []
  }

  /** After a replay: the stored title, once. */
  replayed(): SessionUpdate[] {
    return this.titleUpdate()
  }

  private titleUpdate(): SessionUpdate[] {
    const { title } = this.header
    if (title === undefined || title === this.sentTitle) return []
    this.sentTitle = title
    return [{ sessionUpdate: 'session_info_update', title }]
  }
}
