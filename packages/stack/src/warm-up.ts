// The stack's warm-up: what the first command of a session would otherwise wait for is made
// ready while the person types and the model answers. When a session opens (just after its
// `session/new` / `load` / `resume` response was sent, never before it), tool-shell's
// warmUpCommands loads the bash grammar (web-tree-sitter compiling tree-sitter-bash: about
// 100 ms, once per process), compiles the bash tool's argument check and has the shell
// provider run `true` once in the session's folder (a sandbox checks bwrap then, without
// blocking), so the first command's card comes as fast as the later ones. Nothing is awaited
// here; only the first session of a process does the work that lasts.
import type { Context } from 'cordis'
import type {} from '@deepseek-ai/dsh-acp' // for its augmentation: the acp/session-open event
import { preloadBashParser, warmUpCommands } from '@deepseek-ai/dsh-tool-shell'

export const name = 'warm-up'

export function apply(ctx: Context): void {
  let warmed = false
  ctx.on('acp/session-open', (session) => {
    if (warmed) return
    warmed = true
    const shell = ctx.get('shell')
    if (shell === undefined) void preloadBashParser()
    else void warmUpCommands(shell, session.agent.session.header.cwd)
  })
}
