// ChildSessions: how one ACP session shows the child sessions under it (a task's delegate, and
// that one's), as they work and in a replay. Two ways, by what the client advertised:
// - nested cards (any client): a child's tool cards go on the session itself with wire ids
//   `<child id>/<call id>` and `_meta.dsh.parentToolCallId`, the wire id of the card of the call
//   that started the child; its words stay its own (that call reports them).
// - subagent sessions (a client with `clientCapabilities.subagents`, ../cards/subagent-updates): a child
//   is announced on its immediate parent's session before any update of its own, then its whole
//   thread goes out on its own session id (its prompt, answers, thoughts, cards, usage), and its
//   work state on the parent's. Its cards are not repeated on the parent's session: a client
//   that nests shows the child's session inside the parent's, and the same cards loose in the
//   parent's thread would show each of the delegate's calls twice.
// A question about a child's call is asked on the session its card is on, titled with the task
// that asks (./ask-queue), so it never reads as the parent's own. Builds and routes
// updates; the record's `sendOn` sends them.
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { Agent, SessionEvent, StoredChildSession } from '@deepseek-ai/dsh-agent'
import type { ToolSession } from '@deepseek-ai/dsh-tools'
import { presentSessionEvent } from '../cards/presenter'
import type { AcpPresenterContext } from '../cards/presenter'
import { replayUpdates } from '../cards/replay'
import type { AcpSessionFiles } from './editor-files'
import { SessionCards, isToolEvent, tagParentCall } from '../cards/session-cards'
import {
  toAcpChildPrompt,
  toAcpSubagentAnnounce,
  toAcpSubagentIdle,
  toAcpSubagentState,
} from '../cards/subagent-updates'
import type { AcpWireUpdate } from '../cards/subagent-updates'
import { ToolCards } from '../cards/tool-cards'

/** An update and the wire session it goes on. */
export interface AcpRoutedUpdate {
  sessionId: string
  update: AcpWireUpdate
}

/** A session shown here: its cards and the wire session its updates go on. */
export interface AcpShownSession {
  cards: SessionCards
  sessionId: string
  /** A subagent session: the wire session of its immediate parent, where its state goes. */
  parentSessionId?: string
  /** A child session's title (its task's): its questions say which task asks. */
  task?: string
}

export interface ChildSessionsOptions {
  /** The ACP session's own agent session. */
  root: ToolSession
  rootCards: SessionCards
  presenter: AcpPresenterContext
  terminals: boolean
  /** The client advertised subagent sessions. */
  subagents: boolean
  sendOn: (sessionId: string, update: AcpWireUpdate) => void
  isClosed: () => boolean
}

export class ChildSessions {
  private readonly shown = new Map<ToolSession, AcpShownSession>()
  /** The files of the child sessions shown as subagent sessions, by their wire id. */
  private readonly childFiles = new Map<string, AcpSessionFiles>()

  constructor(private readonly options: ChildSessionsOptions) {
    const { root, rootCards } = options
    this.shown.set(root, { cards: rootCards, sessionId: root.header.id })
  }

  /** Where the calls of `session` (the root's or a child's) are shown; the root when unknown. */
  targetOf(session: ToolSession | undefined): AcpShownSession {
    const root = this.shown.get(this.options.root) as AcpShownSession
    return (session && this.shown.get(session)) ?? root
  }

  /**
   * The files a call of `session` reaches the editor through: under the wire session its cards
   * are on (a child's subagent session, else the root's, `files`), so one id goes with all its
   * requests. `filesOn` gives them for another wire session.
   */
  filesOf(
    session: ToolSession,
    files: AcpSessionFiles,
    filesOn: ((sessionId: string) => AcpSessionFiles) | undefined,
  ): AcpSessionFiles {
    const { sessionId } = this.targetOf(session)
    if (sessionId === this.options.root.header.id || filesOn === undefined) return files
    let shown = this.childFiles.get(sessionId)
    if (shown === undefined) {
      shown = filesOn(sessionId)
      this.childFiles.set(sessionId, shown)
    }
    return shown
  }

  /** Runs a question about a call of `session`: a subagent waits on the person meanwhile. */
  async asking<T>(session: ToolSession | undefined, ask: () => Promise<T>): Promise<T> {
    const target = this.targetOf(session)
    const parent = target.parentSessionId
    if (parent === undefined) return ask()
    this.options.sendOn(parent, toAcpSubagentState(target.sessionId, 'requires_action'))
    try {
      return await ask()
    } finally {
      this.options.sendOn(parent, toAcpSubagentState(target.sessionId, 'running'))
    }
  }

  /**
   * Shows a child session of `parent` as it works (and its own children); followed until it is
   * released.
   */
  follow(child: Agent, parent: ToolSession): void {
    if (this.options.isClosed()) return
    const { header } = child.session
    const above = this.shown.get(parent)
    if (above === undefined) return
    const parentToolCallId =
      header.parentCallId === undefined ? undefined : above.cards.wireIdOf(header.parentCallId)
    const { presenter, terminals, subagents, sendOn } = this.options
    let shown: AcpShownSession
    if (subagents) {
      sendOn(above.sessionId, toAcpSubagentAnnounce(header, parentToolCallId))
      const cards = new SessionCards(terminals, presenter)
      shown = { cards, sessionId: header.id, parentSessionId: above.sessionId }
    } else {
      const cards = new SessionCards(terminals, presenter, `${header.id}/`, parentToolCallId)
      shown = { cards, sessionId: above.sessionId }
    }
    if (header.title !== undefined) shown.task = header.title
    this.shown.set(child.session, shown)
    let working = false
    const unsubscribe = child.subscribe((event) => {
      if (event.type === 'turn/start') working = true
      if (event.type === 'turn/end') working = false
      for (const { sessionId, update } of this.updatesOf(event, shown)) sendOn(sessionId, update)
    })
    const unfollow = child.onChild((grandchild) => this.follow(grandchild, child.session))
    const release = () => {
      unsubscribe()
      unfollow()
      this.shown.delete(child.session)
      // A child released mid-turn without its end: it stopped, as a cancel stops it.
      if (working && shown.parentSessionId !== undefined) {
        sendOn(shown.parentSessionId, toAcpSubagentIdle(header.id, { reason: 'cancelled' }))
      }
    }
    child.lifetime.addEventListener('abort', release, { once: true })
  }

  /**
   * The replay of a stored session with its children (`childrenOf` reads them from the store):
   * the session's own updates, each call that started a child followed by the child's nested
   * cards, or its announcement (its final state in it) with its thread after the session's.
   */
  replay(
    sessionId: string,
    events: readonly SessionEvent[],
    cards: ToolCards,
    childrenOf: (id: string) => StoredChildSession[],
  ): AcpRoutedUpdate[] {
    const routed: AcpRoutedUpdate[] = []
    const { presenter, subagents, terminals } = this.options
    const threads: { id: string; events: readonly SessionEvent[] }[] = []
    const announce = (id: string) => {
      const take = takerOf(childrenOf(id))
      return (callId: string, wireId: string): AcpWireUpdate[] => {
        const child = take(callId)
        if (child === undefined) return []
        threads.push({ id: child.header.id, events: child.events })
        const end = lastEndOf(child.events)
        const announcement = toAcpSubagentAnnounce(child.header, wireId)
        const state = end && toAcpSubagentIdle(child.header.id, end).state
        return [{ ...announcement, ...(state && { state }) }]
      }
    }
    const own = subagents
      ? replayUpdates(events, cards, presenter, announce(sessionId))
      : replayUpdates(events, cards, presenter, this.nestedCards(childrenOf, sessionId, ''))
    for (const update of own) routed.push({ sessionId, update })
    // Each announced child's thread after its parent's, its own children announced in it.
    for (let i = 0; i < threads.length; i++) {
      const { id, events: childEvents } = threads[i]!
      const updates = replayUpdates(childEvents, new ToolCards(terminals), presenter, announce(id))
      for (const update of updates) routed.push({ sessionId: id, update })
    }
    return routed
  }

  /** The nested cards of the children of session `id` (wire ids prefixed by `prefix`). */
  private nestedCards(
    childrenOf: (id: string) => StoredChildSession[],
    id: string,
    prefix: string,
  ): (callId: string, wireId: string) => AcpWireUpdate[] {
    const take = takerOf(childrenOf(id))
    const { presenter, terminals } = this.options
    return (callId, wireId) => {
      const child = take(callId.slice(prefix.length))
      if (child === undefined) return []
      const childPrefix = `${child.header.id}/`
      const events = child.events.map((event) =>
        isToolEvent(event) ? { ...event, callId: childPrefix + event.callId } : event,
      )
      const nested = this.nestedCards(childrenOf, child.header.id, childPrefix)
      const updates = replayUpdates(events, new ToolCards(terminals), presenter, nested)
      // Only the cards, as live; a grandchild's keep the tag naming their own parent call.
      const shown = [...updates].filter(
        (update): update is SessionUpdate =>
          update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update',
      )
      return tagParentCall(shown, wireId)
    }
  }

  /** What one event of a child shows as, and on which session. */
  private updatesOf(event: SessionEvent, shown: AcpShownSession): AcpRoutedUpdate[] {
    const on = (updates: readonly AcpWireUpdate[], sessionId = shown.sessionId) =>
      updates.map((update) => ({ sessionId, update }))
    if (isToolEvent(event)) return on(shown.cards.updatesOf(event))
    const parent = shown.parentSessionId
    if (parent === undefined) {
      // Nested cards: only the cards, closed at the child's turn end.
      return event.type === 'turn/end' ? on(shown.cards.closeOpen(event.reason)) : []
    }
    const { presenter } = this.options
    const id = shown.sessionId
    switch (event.type) {
      case 'turn/start':
        return on([toAcpSubagentState(id, 'running')], parent)
      case 'user/message':
        return on([toAcpChildPrompt(event.text)])
      case 'turn/end':
        return [
          ...on(presentSessionEvent(event, presenter)),
          ...on(shown.cards.closeOpen(event.reason)),
          ...on([toAcpSubagentIdle(id, event)], parent),
        ]
      case 'session/mode':
      case 'session/model':
      case 'session/thought-level':
        // The child works under its parent's options: they are the parent's to show.
        return []
      default:
        return on(presentSessionEvent(event, presenter) as SessionUpdate[])
    }
  }
}

/** Takes the children in turn by the parent's call id that started them (ids may repeat). */
function takerOf(
  children: readonly StoredChildSession[],
): (callId: string) => StoredChildSession | undefined {
  const left = [...children]
  return (callId) => {
    const index = left.findIndex((child) => child.header.parentCallId === callId)
    return index < 0 ? undefined : left.splice(index, 1)[0]
  }
}

/** How the last turn of a stored session ended; none when it never ended (the process died). */
function lastEndOf(events: readonly SessionEvent[]) {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!
    if (event.type === 'turn/end') return event
    if (event.type === 'turn/start') return undefined
  }
  return undefined
}
