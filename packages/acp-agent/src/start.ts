#!/usr/bin/env node
// The `dsh-acp` bin as installed (dist/bin.js): starts the bundled program, dist/dsh-acp.cjs
// (bin.ts with every dependency inside, one file, so no module resolution at start), from a V8
// code cache kept beside it, so a start does not compile the bundle again. Without a usable
// cache (the first run, another Node or other V8 flags, a damaged file) the bundle compiles as
// usual and a fresh cache is written when the process exits: beside the bundle, or, where the
// install is read-only (a global install by another user), in the person's cache folder
// (`$XDG_CACHE_HOME/dsh`, else `~/.cache/dsh`). Writes nothing to stdout: the program owns it.
// Not the program itself (bin.ts), and imports nothing of it, so a start loads only the bundle.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { Script } from 'node:vm'

const BUNDLE = fileURLToPath(new URL('./dsh-acp.cjs', import.meta.url))
/** Where a code cache is looked for and written, in order; V8 rejects one of another bundle. */
const CODE_CACHES = [`${BUNDLE}.code-cache`, join(cacheHome(), 'dsh', 'dsh-acp.code-cache')]

startBundle()

function startBundle(): void {
  // The flag the program sets for a prompt exit (./exit-ready), set here before the bundle is
  // compiled: V8 rejects a code cache made under other flags, so the cache is written and read
  // under the same ones.
  setFlagsFromString('--liftoff-only')
  const source = readFileSync(BUNDLE, 'utf8')
  const cachedData = readCache()
  // The CommonJS wrapper on the bundle's first line keeps its line numbers in stack traces.
  const body = source.startsWith('#!') ? `//${source}` : source
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${body}\n})`,
    { filename: BUNDLE, ...(cachedData && { cachedData }) },
  )
  if (cachedData === undefined || script.cachedDataRejected === true) {
    // At exit the cache holds every function the run compiled, not only the top level.
    process.once('exit', () => writeCache(script))
  }
  const run = script.runInThisContext() as (
    exports: object,
    require: NodeRequire,
    module: { exports: object },
    filename: string,
    dirname: string,
  ) => void
  const module = { exports: {} }
  run(module.exports, createRequire(BUNDLE), module, BUNDLE, dirname(BUNDLE))
}

function cacheHome(): string {
  const xdg = process.env.XDG_CACHE_HOME
  return xdg !== undefined && xdg.startsWith('/') ? xdg : join(homedir(), '.cache')
}

function readCache(): Buffer | undefined {
  for (const path of CODE_CACHES) {
    try {
      return readFileSync(path)
    } catch {
      // none here yet: look in the next place, else this run compiles and writes one
    }
  }
  return undefined
}

function writeCache(script: Script): void {
  const data = script.createCachedData()
  for (const path of CODE_CACHES) {
    // A new name, then a rename: a start running beside this one reads the old cache or the new.
    const temporary = `${path}.${process.pid}`
    try {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(temporary, data)
      renameSync(temporary, path)
      return
    } catch {
      // Not writable here (a read-only install, a read-only home): try the next place; with
      // none, every start compiles the bundle.
      rmSync(temporary, { force: true })
    }
  }
}
