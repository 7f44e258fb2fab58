// The package version, for `dsh-acp --version` and the agent info `initialize` reports.
// Read from package.json one level above this file, which holds from src/ and dist/ alike.
import { readFileSync } from 'node:fs'

export function readVersion(): string {
  const url = new URL('../package.json', import.meta.url)
  const pkg = JSON.parse(readFileSync(url, 'utf8')) as { version?: unknown }
  return typeof pkg.version === 'string' ? pkg.version : 'unknown'
}
