// The stack's warm-up: what the first command of a session would otherwise wait for is made
// ready while the person types and the model answers. When a session opens (just after its
// `session/new` / `load` / `resume` response was sent, never before it), the bash grammar
// starts loading (web-tree-sitter compiling tree-sitter-bash: about 100 ms, once per process),
// so the first command's card comes as fast as the later ones. Nothing is awaited here.
import type { Context } from 'cordis'
import type {} from '@deepseek-ai/dsh-acp' // for its augmentation: the acp/session-open event
import { preloadBashParser } from '@deepseek-ai/dsh-tool-shell'

export const name = 'warm-up'

export function apply(ctx: Context): void {
  ctx.on('acp/session-open', () => void preloadBashParser())
}
