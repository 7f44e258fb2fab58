#!/usr/bin/env node
// The start, dist/bin.cjs (the installed `dsh-acp`; dist/bin.js is the same start as an ES
// module, which costs node its module loader): runs the bundled program, dist/dsh-acp.cjs
// (bin.ts with every dependency inside, one file, so no module resolution at start), from a V8
// code cache (./bundle-script), so a start does not compile the bundle again. Without a usable
// cache (the first run, another Node or other V8 flags, a damaged file) the bundle compiles as
// usual and a fresh cache is written when the process exits. Not the program itself (../bin.ts),
// and shares no module with it, so a start loads only the bundle. V8 runs lean while the
// program starts (./lean-start).
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { compileBundle, runBundle, writeCodeCache } from './bundle-script'
import { relean, startLean } from './lean-start'

/** This file's folder: `__dirname` in the CommonJS start, from `import.meta.url` in the module. */
const HERE = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url))
const BUNDLE = join(HERE, 'dsh-acp.cjs')

// The flag the program sets for a prompt exit (./exit-ready), set here before the bundle is
// compiled: V8 rejects a code cache made under other flags, so the cache is written and read
// under the same ones.
setFlagsFromString('--liftoff-only')
const lean = startLean()
const { script, cacheMissing } = compileBundle(BUNDLE)
// At exit the cache holds every function the run compiled, not only the top level, and is
// written under the flags the next start compiles under.
if (cacheMissing)
  process.once('exit', () => {
    if (lean) relean()
    writeCodeCache(BUNDLE, script)
  })
runBundle(BUNDLE, script, createRequire(BUNDLE))
