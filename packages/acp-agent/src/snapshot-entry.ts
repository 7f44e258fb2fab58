// What `node --build-snapshot` runs to make the startup snapshot (./snapshot): the bundle
// compiled from its code cache, which the build wrote from a real start, so every function a
// start runs is compiled already in the snapshot (V8 keeps compiled functions in it; without
// this a process from the snapshot would compile them at each start), then evaluated: its module
// code runs here, and the program (bin.ts `run`) when a process starts from the snapshot. While
// the snapshot is made only Node's own modules can be loaded; from it, `require` is a real one,
// for the modules the bundle leaves outside (ripgrep, the bash grammar).
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { startupSnapshot } from 'node:v8'
import { compileBundle, runBundle } from './bundle-script'

const BUNDLE = join(__dirname, 'dsh-acp.cjs')
const builtinRequire = require
let moduleRequire: NodeRequire | undefined

function bundleRequire(id: string): unknown {
  if (startupSnapshot.isBuildingSnapshot()) return builtinRequire(id)
  moduleRequire ??= createRequire(BUNDLE)
  return moduleRequire(id)
}

runBundle(BUNDLE, compileBundle(BUNDLE).script, bundleRequire)
