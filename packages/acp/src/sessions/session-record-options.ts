// What the bridge gives a session's record (./session-record): its agent and channels, how its
// updates reach the client, and what the client offered (subagents, terminals, notices, forms,
// compaction, its files). Types and one constant only.
import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionConfigOption,
  SessionUpdate,
} from '@agentclientprotocol/sdk'
import type { Agent, StoredChildSession } from '@deepseek-ai/dsh-agent'
import type { AcpRoutedUpdate } from './child-sessions'
import type { AcpSessionFiles } from './editor-files'
import type { AcpElicit } from './elicit'
import type { AcpSessionChannels } from './session-channels'
import type { AcpWireUpdate } from '../cards/subagent-updates'

/** Updates a replay sends before it waits for the connection to take them. */
export const REPLAY_BATCH = 256
export interface AcpSessionRecordOptions {
  agent: Agent
  /** The channels `agent` was created with: the record answers them from now on. */
  channels: AcpSessionChannels
  /**
   * Delivers one update of this session; called synchronously, in event order. May return
   * when it was written out (see `written` of the session's channels).
   */
  send: (update: SessionUpdate) => void | Promise<void>
  /**
   * Delivers one update on another wire session of this one's: a child's subagent session (see
   * `subagents`), or the announcement of one. Called synchronously, in event order.
   */
  sendOn: (sessionId: string, update: AcpWireUpdate) => void | Promise<void>
  /**
   * Delivers many updates at once, in order, each on its wire session; resolves once they were
   * handed on. Only a replay uses it (without it, `sendOn` one by one): it is the first thing a
   * loaded session sends, so no update of `send`'s is waiting to go before it.
   */
  sendBatch?: (updates: readonly AcpRoutedUpdate[]) => Promise<void>
  /** The client shows subagent sessions (`clientCapabilities.subagents`): see ./child-sessions. */
  subagents?: boolean
  /** The child sessions stored under a session (a replay shows them); none without it. */
  storedChildren?: (id: string) => StoredChildSession[]
  /** The session's files as its editor holds them. */
  files: AcpSessionFiles
  /** The same files under another wire session id (a child's subagent session). */
  filesOn?: (sessionId: string) => AcpSessionFiles
  /** The client advertised `session.compaction`. */
  compaction?: boolean
  /** The models the session may switch to, and the one it uses without a choice. */
  models?: () => { list: readonly string[]; fallback: string }
  /** The session's whole option list now, sent as `config_option_update` when one changes. */
  configOptions?: () => SessionConfigOption[]
  /** The client shows terminals (`_meta.terminal_output`): commands stream into them. */
  terminals?: boolean
  /** The client shows `notice` updates (`session.notices`); else a notice is an agent message. */
  notices?: boolean
  /** The session's channel to the person's forms, when the client shows them (./elicit). */
  elicit?: AcpElicit
  /** The modes of the session: `/plan` switches to `plan` when it is one of them. */
  modes?: readonly string[]
  /** Asks the client `session/request_permission`; the signal cancels the request. */
  requestPermission: (
    params: RequestPermissionRequest,
    signal?: AbortSignal,
  ) => Promise<RequestPermissionResponse>
}
