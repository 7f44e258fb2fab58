// What the handlers of one connection share: the bridge's dependencies, the connection's live
// sessions and their options, and the way a session's updates go to the client. Types only.
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { AcpAuth } from '../wire/auth'
import type { AcpBridgeDeps } from '../bridge-deps'
import type { ConnectionSessions } from './connection-sessions'
import type { SessionOptions } from './session-options'

export interface AcpConnectionState {
  deps: AcpBridgeDeps
  sessions: ConnectionSessions
  options: SessionOptions
  /** The app's sign-in: asked before a session opens (see AcpServeOptions). */
  auth?: AcpAuth
  /** Sends one update of session `sessionId` to the client. */
  send(sessionId: string, update: SessionUpdate): void
}
