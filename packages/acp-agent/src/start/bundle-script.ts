// The bundle (dist/dsh-acp.cjs) as a V8 script with its code cache: what the start (./start)
// runs. The cache is kept beside the bundle or, where the install is read-only, in the person's
// cache folder (`$XDG_CACHE_HOME/dsh`, else `~/.cache/dsh`); V8 rejects one made for another
// bundle, another Node or other V8 flags, and the bundle then compiles as usual. Imports nothing
// of the program, and the program imports nothing of it: dist/bin.cjs and dist/bin.js must each
// stay one file, with no chunk shared with the program's build.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { Script } from 'node:vm'

/** The CommonJS wrapper's function, as a script's run gives it. */
export type BundleMain = (
  exports: object,
  require: (id: string) => unknown,
  module: { exports: object },
  filename: string,
  dirname: string,
) => void

export interface BundleScript {
  script: Script
  /** No usable cache was found: write one (`writeCodeCache`) once the run compiled what it needs. */
  cacheMissing: boolean
}

/** Where the code cache is looked for and written, in order. */
function codeCachePlaces(bundle: string): string[] {
  const xdg = process.env.XDG_CACHE_HOME
  const cache = xdg !== undefined && xdg.startsWith('/') ? xdg : join(homedir(), '.cache')
  return [`${bundle}.code-cache`, join(cache, 'dsh', 'dsh-acp.code-cache')]
}

/** The first code cache that can be read; undefined when none can. */
function readCodeCache(bundle: string): Buffer | undefined {
  for (const path of codeCachePlaces(bundle)) {
    try {
      return readFileSync(path)
    } catch {
      // none here yet: look in the next place
    }
  }
  return undefined
}

/** The bundle compiled, from its code cache where one is usable. */
export function compileBundle(bundle: string): BundleScript {
  // ASCII only (the build checks it), so Latin-1 reads it exactly, into a one-byte string that
  // Node keeps outside V8's heap. The build wrote the CommonJS wrapper around the program (a
  // function expression, after the entry's `#!` line, which V8 reads as a comment), so the
  // string is compiled as it is: no copy of two megabytes into the heap to add one.
  const source = readFileSync(bundle, 'latin1')
  const cachedData = readCodeCache(bundle)
  const script = new Script(source, { filename: bundle, ...(cachedData && { cachedData }) })
  return { script, cacheMissing: cachedData === undefined || script.cachedDataRejected === true }
}

/** Runs the compiled bundle with `require` as its module loader. */
export function runBundle(bundle: string, script: Script, require: (id: string) => unknown): void {
  const main = script.runInThisContext() as BundleMain
  const module = { exports: {} }
  main(module.exports, require, module, bundle, dirname(bundle))
}

/** Writes the script's code cache (every function compiled so far) where it can; with no place, every start compiles the bundle. */
export function writeCodeCache(bundle: string, script: Script): void {
  const data = script.createCachedData()
  for (const path of codeCachePlaces(bundle)) {
    // A new name, then a rename: a start running beside this one reads the old file or the new.
    const temporary = `${path}.${process.pid}`
    try {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(temporary, data)
      renameSync(temporary, path)
      return
    } catch {
      // Not writable here (a read-only install, a read-only home): try the next place.
      rmSync(temporary, { force: true })
    }
  }
}
