#!/usr/bin/env node
// The start, dist/bin.js (the installed `dsh-acp`): the front (./front) answers the client's
// opening from the answers the stack gave last time, then the bundled program,
// dist/dsh-acp.cjs (bin.ts with every dependency inside, one file, so no module resolution at
// start), runs from a V8 code cache (./bundle-script), so a start does not compile the bundle
// again. Without a usable cache (the first run, another Node or other V8 flags, a damaged file)
// the bundle compiles as usual and a fresh cache is written when the process exits. Writes to
// stdout only the front's answers: the program owns it. Not the program itself (bin.ts), and
// shares no module with it, so a start loads only the bundle.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { compileBundle, runBundle, writeCodeCache } from './bundle-script'
import { runFront } from './front'

const BUNDLE = fileURLToPath(new URL('./dsh-acp.cjs', import.meta.url))

// A broken stdout while the front answers (the editor gone) is the program's to find: its own
// first write fails the same way.
const quiet = () => {}
process.stdout.on('error', quiet)
runFront({
  bundle: BUNDLE,
  argv: process.argv.slice(2),
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  handOff: (handoff) => {
    process.stdout.off('error', quiet)
    // The program takes the handoff from here (./front-handoff says why a global).
    ;(globalThis as Record<symbol, unknown>)[Symbol.for('dsh-acp.front')] = handoff
    // The flag the program sets for a prompt exit (./exit-ready), set here before the bundle is
    // compiled: V8 rejects a code cache made under other flags, so the cache is written and read
    // under the same ones.
    setFlagsFromString('--liftoff-only')
    const { script, cacheMissing } = compileBundle(BUNDLE)
    // At exit the cache holds every function the run compiled, not only the top level.
    if (cacheMissing) process.once('exit', () => writeCodeCache(BUNDLE, script))
    runBundle(BUNDLE, script, createRequire(BUNDLE))
  },
})
