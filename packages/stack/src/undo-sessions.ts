// The app's undo wiring: each ACP session is followed by ctx.undo from when it opens (its turns
// snapshotted, `/undo` and `/redo` among its commands, which the bridge draws) until it closes,
// and what undo must tell the person goes out as the bridge shows notices.
import type { AcpSessionOpening } from '@deepseek-ai/dsh-acp'
import type {} from '@deepseek-ai/dsh-undo' // for its augmentation: ctx.undo
import type { Context } from 'cordis'

export const name = 'undo-sessions'

export const inject = ['undo', 'acp']

export function apply(ctx: Context): void {
  ctx.on('acp/session-open', (session: AcpSessionOpening) => {
    const warn = (title: string) => session.notify({ title, severity: 'warning' })
    session.onClose(ctx.undo.open(session.agent, { warn }))
  })
}
