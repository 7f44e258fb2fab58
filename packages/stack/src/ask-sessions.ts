// The stack's wiring of the ask tools (tool-ask): each ACP session gets `exit_plan_mode`, and
// `ask_user` when its client shows forms, with a channel made of the bridge's elicitation for
// that session (`session.elicit`, from acp's elicit module) and the agent's mode. It keeps the
// mode the session had before it started planning, which an approved plan returns to. The
// tools go with the session.
import type { AcpSessionOpening } from '@deepseek-ai/dsh-acp'
import { modeName } from '@deepseek-ai/dsh-permission'
import { PLAN_MODE, registerAskTools } from '@deepseek-ai/dsh-tool-ask'
import type { AskChannel, AskWorkMode } from '@deepseek-ai/dsh-tool-ask'
import type { Context } from 'cordis'

export const name = 'ask-sessions'

export const inject = ['tools', 'acp']

/**
 * The modes a person may pick to work in once a plan is approved: those that let its work run
 * (not read-only, where every edit is refused); full access only for a session that had it.
 */
const WORK_MODES: readonly AskWorkMode[] = [
  { id: 'ask', name: modeName('ask'), approve: 'Approve, ask before changes' },
  { id: 'auto-edit', name: modeName('auto-edit'), approve: 'Approve, allow edits' },
  {
    id: 'full-access',
    name: modeName('full-access'),
    approve: 'Approve, full access',
    onlyIfBefore: true,
  },
]

export function apply(ctx: Context): void {
  ctx.on('acp/session-open', (session) => {
    const remove = registerAskTools(ctx.tools, session.id, channelOf(session))
    session.onClose(remove)
  })
}

function channelOf(session: AcpSessionOpening): AskChannel {
  const { agent } = session
  const header = agent.session.header
  let before = header.mode !== undefined && header.mode !== PLAN_MODE ? header.mode : 'ask'
  let last = header.mode
  agent.subscribe((event) => {
    if (event.type !== 'session/mode') return
    if (event.mode === PLAN_MODE && last !== undefined && last !== PLAN_MODE) before = last
    last = event.mode
  })
  return {
    ...(session.elicit && { elicit: session.elicit }),
    mode: () => agent.session.header.mode,
    modeBeforePlan: () => before,
    setMode: (mode) => agent.setMode(mode),
    workModes: WORK_MODES,
  }
}
