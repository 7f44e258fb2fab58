// Readying a session's first command ahead of it. Three things would otherwise run for the
// first time on its path, each compiling as it first runs: bash's grammar (web-tree-sitter
// compiling tree-sitter-bash, then the first parse and walk of the classifier), the check of
// the call's arguments against the tool's schema (zod compiles a checker on first use), and
// the shell provider starting a process group (and a sandbox's check that bwrap works). A
// host calls warmUpCommands when a session opens, off the path of anything a person waits on,
// so a session's first command runs as fast as the later ones.
import type { Shell } from '@deepseek-ai/dsh-shell'
import { classifyCommand } from './classify'
import { bashArgsInput } from './input'

/** A command that reaches most of the grammar and of the classifier. */
const WARM_UP_COMMAND =
  'git status --short; for f in $(ls *.ts); do ' +
  'git log -1 -- "$f" | head -n 2 > /dev/null 2>&1 && ' +
  `echo "\${f%.ts}" <<< 'x'; done; [[ -n "$x" ]] && sort -u a b | wc -l`

/**
 * Loads the parser (once) and classifies one command with it; settles when done and never
 * rejects: a parser that cannot load fails the first command's classification instead, which
 * says so.
 */
export async function preloadBashParser(): Promise<void> {
  try {
    await classifyCommand(WARM_UP_COMMAND)
  } catch {
    // The first command's classification meets the same failure and reports it.
  }
}

/**
 * The grammar loaded, the arguments' checker compiled, then `shell` warmed up in `cwd` (one
 * `true`, after the grammar so the two do not contend). Never rejects.
 */
export async function warmUpCommands(shell: Shell, cwd: string): Promise<void> {
  await preloadBashParser()
  bashArgsInput.safeParse({ command: WARM_UP_COMMAND, timeout: 1000, description: 'warm-up' })
  await shell.warmUp(cwd)
}
