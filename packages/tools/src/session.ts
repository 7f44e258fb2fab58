// A call's session, as policy and the person see it: the root of a child session's chain
// (whose mode, "always allow" memory, session tools and channels a child uses), and telling the
// person something through the session's `notice` channel. Cordis-free.
import type { ToolExecution, ToolNotice, ToolSession } from './types'

/** The session a call's policy belongs to: its own, or the root of its parents. */
export function rootSessionOf(session: ToolSession): ToolSession {
  let root = session
  while (root.parent !== undefined) root = root.parent
  return root
}

/** The id under which a call's session tools are registered: its root session's. */
export function toolSessionIdOf(exec: ToolExecution): string | undefined {
  const session = exec.agent?.session
  return session === undefined ? undefined : rootSessionOf(session).header.id
}

/**
 * Tells the person of the call's session `notice`, through the session's channel; `fallback`
 * (a host's event) for a session whose host gives none. False when neither could carry it.
 */
export function tellPerson(
  exec: ToolExecution,
  notice: ToolNotice,
  fallback?: (exec: ToolExecution, notice: ToolNotice) => void,
): boolean {
  const channel = exec.agent?.session.channels?.notice
  if (channel !== undefined) channel(notice)
  else if (fallback !== undefined) fallback(exec, notice)
  else return false
  return true
}
