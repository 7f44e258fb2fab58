// Where the ripgrep binary is: the one @vscode/ripgrep installs for this platform (a
// per-platform optional dependency, nothing downloaded), else `rg` on PATH. Found once per
// process and kept. Neither → SEARCH_NO_RIPGREP naming what to install.
import { accessSync, constants } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, join } from 'node:path'
import { SearchError } from './errors'

let found: Promise<string> | undefined

/** The ripgrep binary to run: `configured` when given, else the package's, else PATH's. */
export function ripgrepPath(configured?: string): Promise<string> {
  if (configured !== undefined) return Promise.resolve(configured)
  found ??= locate()
  return found
}

async function locate(): Promise<string> {
  try {
    // The package throws on load when its platform package is absent: caught, then PATH.
    // Required, not imported: the app's bundled bin runs as a script with no dynamic import.
    const { rgPath } = createRequire(import.meta.url)('@vscode/ripgrep') as { rgPath: string }
    if (isExecutable(rgPath)) return rgPath
  } catch {
    // No binary for this platform in the package: PATH is the fallback.
  }
  const onPath = findOnPath(process.platform === 'win32' ? 'rg.exe' : 'rg', process.env.PATH)
  if (onPath !== undefined) return onPath
  found = undefined // look again next time: ripgrep may be installed meanwhile
  throw noRipgrep()
}

/** The first executable `name` in the PATH list, if any. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue
    const candidate = join(dir, name)
    if (isExecutable(candidate)) return candidate
  }
  return undefined
}

/** The error of a host without ripgrep (or with a `tried` binary that does not run). */
export function noRipgrep(tried?: string): SearchError {
  const found = tried === undefined ? 'ripgrep was not found' : `ripgrep at ${tried} cannot be run`
  return new SearchError(
    'SEARCH_NO_RIPGREP',
    `Search is unavailable: ${found}. Install ripgrep (the \`rg\` command, e.g. ` +
      '`apt-get install ripgrep`), or reinstall the agent with its optional dependencies ' +
      '(@vscode/ripgrep brings a binary for this platform).',
  )
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}
