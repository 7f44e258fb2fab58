// Readying the command classifier ahead of the first command: loading bash's grammar
// (web-tree-sitter compiling tree-sitter-bash) and the first parse and walk, which compile the
// parser's WebAssembly and the classifier's code as they first run, each cost about as much
// as the load. A host calls preloadBashParser when a session opens, off the path of anything a
// person waits on, so a session's first command is classified as fast as the later ones.
import { classifyCommand } from './classify'

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
