#!/usr/bin/env node
// The `dsh-acp` bin as installed (dist/bin.js): starts the bundled program, dist/dsh-acp.cjs
// (bin.ts with every dependency inside, one file, so no module resolution at start), from a V8
// code cache kept beside it, so a start does not compile the bundle again. Without a usable
// cache (the first run, another Node or other V8 flags, a damaged file) the bundle compiles as
// usual and a fresh cache is written when the process exits. Writes nothing to stdout: the
// program owns it.
// Not the program itself (bin.ts), and imports nothing of it, so a start loads only the bundle.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Script } from 'node:vm'

const BUNDLE = fileURLToPath(new URL('./dsh-acp.cjs', import.meta.url))
const CODE_CACHE = `${BUNDLE}.code-cache`

startBundle()

function startBundle(): void {
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

function readCache(): Buffer | undefined {
  try {
    return readFileSync(CODE_CACHE)
  } catch {
    return undefined // none yet: this run compiles and writes it
  }
}

function writeCache(script: Script): void {
  // A new name, then a rename: a start running beside this one reads the old cache or the new.
  const temporary = `${CODE_CACHE}.${process.pid}`
  try {
    writeFileSync(temporary, script.createCachedData())
    renameSync(temporary, CODE_CACHE)
  } catch {
    // A read-only install runs without a cache, compiling the bundle at each start.
    rmSync(temporary, { force: true })
  }
}
