// Test helpers of the ctx.tools seam: a session and a call built whole, as a host would give
// them, for tests that run tools without an agent host. Not for product code.
import type { ToolExecution, ToolSession, ToolSessionChannels, ToolSessionHeader } from './types'

/** What a test session is made of: a header (id defaults to `test-session`), its mode and channels. */
export interface TestSessionOptions extends Partial<ToolSessionHeader> {
  cwd: string
  channels?: ToolSessionChannels
}

/** A root session: its own scope (id, mode, channels), as a host gives one. */
export function testSession(options: TestSessionOptions): ToolSession {
  const { channels = {}, ...given } = options
  const header: ToolSessionHeader = { id: 'test-session', ...given }
  return {
    header,
    scope: {
      id: header.id,
      get mode() {
        return header.mode
      },
      channels,
    },
  }
}

/** A child session of `root`: its own header, the root's scope by reference. */
export function testChildSession(root: ToolSession, id = `${root.header.id}-child`): ToolSession {
  return { header: { ...root.header, id, parent: root.header.id }, scope: root.scope }
}

/** One call of tool `name` for `session` (a root session on `/` without one). */
export function testExecution(
  name: string,
  args: unknown,
  more: Partial<Omit<ToolExecution, 'name' | 'arguments'>> = {},
): ToolExecution {
  return {
    callId: 'call-1',
    name,
    arguments: args,
    session: more.session ?? testSession({ cwd: '/' }),
    ...more,
  }
}
