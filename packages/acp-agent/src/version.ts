// The package version, for `dsh-acp --version` and the agent info `initialize` reports.
// The bin's bundle has it written in at build time (DSH_ACP_VERSION, see tsup.config.ts), since
// a bundle cannot count on a package.json at a fixed place beside it. Run from the sources or
// the dist modules, it is read from package.json one level above this file.
import { readFileSync } from 'node:fs'

/** The version the bundle build writes in; undeclared (typeof 'undefined') everywhere else. */
declare const DSH_ACP_VERSION: string | undefined

export function readVersion(): string {
  if (typeof DSH_ACP_VERSION === 'string') return DSH_ACP_VERSION
  const url = new URL('../package.json', import.meta.url)
  const pkg = JSON.parse(readFileSync(url, 'utf8')) as { version?: unknown }
  return typeof pkg.version === 'string' ? pkg.version : 'unknown'
}
