// What keeps the bin's exit prompt. `process.exit` does not return until V8's background
// threads finish the jobs they hold, and optimising WebAssembly (TurboFan tiering up the bash
// grammar that web-tree-sitter loads when a session opens, about 2 MB of code) is such a job:
// on a busy machine it held an exit for seconds after the editor had gone. With Liftoff only,
// WebAssembly is compiled once, quickly, and nothing is left running in the background to wait
// for; the grammar only ever parses single commands, so the slower code costs nothing felt.
// Process-wide, so only the bin sets it (an embedding host chooses its own flags).
import { setFlagsFromString } from 'node:v8'

/** Sets the V8 flags the bin's exit relies on; before any WebAssembly is compiled. */
export function keepExitPrompt(): void {
  setFlagsFromString('--liftoff-only')
}
