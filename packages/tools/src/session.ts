// A call's session, as policy and the person see it: the id its session tools are found under
// (its scope's, which a child session shares with its root), and telling the person something
// through the scope's `notice` channel. Cordis-free.
import type { ToolExecution, ToolNotice } from './types'

/** The id under which a call's session tools are registered: its scope's (the root session's). */
export function toolSessionIdOf(exec: ToolExecution): string {
  return exec.session.scope.id
}

/** Tells the person of the call's session `notice`; false when its host gives no way to. */
export function tellPerson(exec: ToolExecution, notice: ToolNotice): boolean {
  const channel = exec.session.scope.channels.notice
  if (channel === undefined) return false
  channel(notice)
  return true
}
