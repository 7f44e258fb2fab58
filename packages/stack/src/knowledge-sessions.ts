// The app's knowledge wiring: when an ACP session opens, the project's knowledge of it (its
// skills, the person's commands, `/instructions`) is offered as the session's slash commands
// (knowledge's offerKnowledgeCommands, onto agent.commands, which the bridge draws) until the
// session closes, and a file that could not be read is told to the person as the bridge tells
// notices.
import type { AcpSessionOpening } from '@deepseek-ai/dsh-acp'
import { offerKnowledgeCommands } from '@deepseek-ai/dsh-knowledge'
import type { Context } from 'cordis'

export const name = 'knowledge-sessions'

export const inject = ['knowledge', 'acp']

export function apply(ctx: Context): void {
  ctx.on('acp/session-open', (session) => offerKnowledge(ctx, session))
}

function offerKnowledge(ctx: Context, session: AcpSessionOpening): void {
  void ctx.knowledge.session(session.agent).then(
    (knowledge) => {
      const warn = (title: string, description: string) =>
        session.notify({ title, description, severity: 'warning' })
      session.onClose(offerKnowledgeCommands(session.agent.commands, knowledge, warn))
    },
    (error: unknown) =>
      session.notify({
        title: "The project's skills and commands could not be read.",
        description: error instanceof Error ? error.message : String(error),
        severity: 'warning',
      }),
  )
}
