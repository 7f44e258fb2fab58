// The stack's warm-up: what a session's first call would otherwise wait for is made ready
// while the person types and the model answers. When a session opens (just after its
// `session/new` / `load` / `resume` response was sent, never before it), the tools'
// `tools/warm-up` goes out with its agent: the permission layer resolves the session's roots
// (every session), and tool-shell readies a whole first command once per process (the bash
// grammar, about 100 ms; the argument check; the shell's own warm-up, a sandbox's bwrap check
// among it; one call of the tool with nothing shown), so the first command's card comes as
// fast as the later ones. Nothing is awaited here.
import type { Context } from 'cordis'
import type {} from '@deepseek-ai/dsh-acp' // for its augmentation: the acp/session-open event
import type {} from '@deepseek-ai/dsh-tools' // for its augmentation: the tools/warm-up event

export const name = 'warm-up'

export function apply(ctx: Context): void {
  ctx.on('acp/session-open', (session) => ctx.emit('tools/warm-up', session.agent))
}
