// The start's V8 settings: lean while the program loads and answers its first requests, V8's
// usual ones after. Measured on the bundle's start (spawn → first answer of an instant model):
// - TurboFan off: it optimises start-up code that runs a few times and is never hot again, on a
//   background thread whose compiler zones stay resident (6 MiB of the peak);
// - the young generation kept at its first size: at start nearly every object survives (module
//   scopes, schemas), so V8 would double the young generation twice, to 10 MiB resident, for
//   objects that are promoted anyway.
// Together 12 MiB less resident and some 30 ms sooner. Both are read by V8 as it goes (not only
// at start), so setting them back after LEAN_MS lets a long session optimise its hot code and
// size its young generation as usual. Flags given on node's command line or in NODE_OPTIONS
// win: nothing here overrides a choice made there.
import { setFlagsFromString } from 'node:v8'

/** How long the process runs lean from its start, in ms: past a first session and prompt. */
export const LEAN_MS = 2000

const LEAN = ['--no-opt', '--semi-space-growth-factor=1']
/** V8's defaults for the same flags (Node 20's V8 11.3: `node --v8-options`). */
const USUAL = ['--opt', '--semi-space-growth-factor=2']
/** Flags that, given by the person, leave V8 as they set it. */
const CHOSEN = /--(no-)?(opt|turbofan|semi-space-growth-factor|max-semi-space-size)\b/

/** Whether node's command line or NODE_OPTIONS already chose what the lean start would set. */
export function flagsChosen(execArgv: readonly string[], nodeOptions = ''): boolean {
  return execArgv.some((flag) => CHOSEN.test(flag)) || CHOSEN.test(nodeOptions)
}

/**
 * Sets the lean flags unless they were chosen, and the usual ones back after LEAN_MS (a timer
 * that keeps no process alive). Returns whether it set them: the code cache must then be written
 * under them too (`relean`), since V8 keeps a cache only for the flags it was made under.
 */
export function startLean(): boolean {
  if (flagsChosen(process.execArgv, process.env.NODE_OPTIONS)) return false
  for (const flag of LEAN) setFlagsFromString(flag)
  setTimeout(() => {
    for (const flag of USUAL) setFlagsFromString(flag)
  }, LEAN_MS).unref()
  return true
}

/** Sets the lean flags again (before a code cache is written at exit). */
export function relean(): void {
  for (const flag of LEAN) setFlagsFromString(flag)
}
