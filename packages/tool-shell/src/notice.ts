// The one-time word to a person whose commands cannot be sandboxed: the first time in a
// session that a command asks for a confinement its provider cannot give, the provider's
// reason (why, and how to install a sandbox) goes out on the session's notice channel, which
// the bridge shows. Later calls of that session say nothing more.
import type { ToolExecution, ToolNotice, ToolSession } from '@deepseek-ai/dsh-tools'

export const UNSANDBOXED_TITLE = 'Commands are not sandboxed'

export class UnsandboxedNotices {
  private readonly told = new WeakSet<ToolSession>()

  constructor(private readonly emit: (exec: ToolExecution, notice: ToolNotice) => void) {}

  /** Tells `reason` about the call's session, unless it was told already. */
  tell(exec: ToolExecution, reason: string): void {
    const session = exec.session
    if (this.told.has(session)) return
    this.told.add(session)
    this.emit(exec, { title: UNSANDBOXED_TITLE, description: reason })
  }
}
