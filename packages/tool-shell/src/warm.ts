// Readying a session's first command ahead of it. What would otherwise run for the first time
// on its path, each compiling as it first runs: bash's grammar (web-tree-sitter compiling
// tree-sitter-bash, then the first parse and walk of the classifier), the check of the call's
// arguments against the tool's schema (zod compiles a checker on first use), the shell
// provider starting a process group (and a sandbox's check that bwrap works), and the bash
// tool's own code: its card, its access hook, running a command and reading its output (the
// sandbox note's patterns compile as they first match). The plugin runs warmUpBash on the
// first `tools/warm-up` (a session opened, its answer sent), so a session's first command runs
// as fast as the later ones. Nothing of it reaches a person: no card, no question, no notice.
import type { ToolAgent, ToolExecution } from '@deepseek-ai/dsh-tools'
import { bashAccess } from './access'
import { runCommand } from './bash'
import type { BashHost } from './bash'
import { classifyCommand } from '@deepseek-ai/dsh-shell-policy'
import { bashArgsInput } from './input'
import type { BashArgs } from './input'
import { presentBashCall, presentBashResult } from './present'

/** A command that reaches most of the grammar and of the classifier. */
const WARM_UP_COMMAND =
  'git status --short; for f in $(ls *.ts); do ' +
  'git log -1 -- "$f" | head -n 2 > /dev/null 2>&1 && ' +
  `echo "\${f%.ts}" <<< 'x'; done; [[ -n "$x" ]] && sort -u a b | wc -l`

/** The command the tool runs once: a builtin that only prints (a read, in any sandbox). */
const WARM_UP_RUN = 'echo warm-up'

/**
 * Loads the parser (once) and classifies one command with it; settles when done and never
 * rejects: a parser that cannot load fails the first command's classification instead, which
 * says so.
 */
async function preloadBashParser(): Promise<void> {
  try {
    await classifyCommand(WARM_UP_COMMAND)
  } catch {
    // The first command's classification meets the same failure and reports it.
  }
}

/**
 * The grammar loaded, the arguments' checker compiled, the shell warmed up in the session's
 * folder (after the grammar, so the two do not contend), then one call of the tool made as the
 * session would make it (`echo` in the confinement its mode gives a read) with no host to
 * report to: its card and result presented, nothing shown. Never rejects.
 */
export async function warmUpBash(host: BashHost, agent: ToolAgent): Promise<void> {
  try {
    await preloadBashParser()
    const cwd = agent.session.header.cwd
    bashArgsInput.safeParse({ command: WARM_UP_COMMAND, timeout: 1000, description: 'warm-up' })
    await host.shell.warmUp(cwd)
    const args: BashArgs = { command: WARM_UP_RUN }
    const { session } = agent
    const exec: ToolExecution = { callId: 'warm-up', name: 'bash', arguments: args, session, agent }
    presentBashCall(args, { cwd, session: session.scope.id })
    await bashAccess(host.shell, args.command, exec, { network: host.network })
    const result = await runCommand(host, args, exec)
    presentBashResult(args, { content: [], isError: result.isError, details: result.details })
  } catch {
    // The first real command meets the same failure and reports it.
  }
}
