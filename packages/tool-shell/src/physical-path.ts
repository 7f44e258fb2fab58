// Paths as the kernel resolves them: `..` is the parent of the directory reached so far, with
// every link on the way followed, not the text before it. `link/../x`, where `link` leads
// out of the workspace, is a file beside the link's target; read as text it would be `x` in
// the workspace. Also the globs of a command expanded, to look at what they match. Local disk.
import { readdir, realpath } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/** `path` (relative to `cwd`) with every `..` taken physically; links past the last kept. */
export async function physicalPath(cwd: string, path: string): Promise<string> {
  const absolute = path.startsWith('/') ? path : `${cwd}/${path}`
  let reached = '/'
  for (const segment of absolute.split('/')) {
    if (segment === '' || segment === '.') continue
    reached = segment === '..' ? dirname(await realOr(reached)) : join(reached, segment)
  }
  return reached
}

/** The real path, or the path as given when the disk cannot say (missing: nothing is read). */
async function realOr(path: string): Promise<string> {
  try {
    return await realpath(path)
  } catch {
    // A missing path fails the command's own open too; its lexical parent stands in.
    return path
  }
}

/** The most entries a glob's expansion may look at before the command is asked instead. */
export const GLOB_BUDGET = 5000

/**
 * What bash's pathname expansion makes of `pattern` (relative to `cwd`): the matching paths,
 * or `undefined` when more than GLOB_BUDGET entries would have to be looked at. `*`, `?` and
 * `[…]` within one segment; a name starting with `.` only for a segment that does too.
 */
export async function expandGlob(cwd: string, pattern: string): Promise<string[] | undefined> {
  const absolute = pattern.startsWith('/') ? pattern : `${cwd}/${pattern}`
  let found = ['/']
  let looked = 0
  for (const segment of absolute.split('/')) {
    if (segment === '') continue
    if (segment === '.') continue
    if (segment === '..') {
      found = await Promise.all(found.map(async (base) => dirname(await realOr(base))))
      continue
    }
    if (!/[*?[]/.test(segment)) {
      found = found.map((base) => join(base, segment))
      continue
    }
    const matcher = segmentMatcher(segment)
    const next: string[] = []
    for (const base of found) {
      const names = await readdir(base).catch(() => [] as string[])
      looked += names.length
      if (looked > GLOB_BUDGET) return undefined
      for (const name of names) if (matcher(name)) next.push(join(base, name))
    }
    found = next
  }
  return found
}

function segmentMatcher(segment: string): (name: string) => boolean {
  let source = ''
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i] as string
    if (char === '*') source += '.*'
    else if (char === '?') source += '.'
    else if (char === '[') {
      const close = segment.indexOf(']', i + 2)
      if (close < 0) source += '\\['
      else {
        const inner = segment
          .slice(i + 1, close)
          .replace(/^[!^]/, '^')
          .replace(/\\/g, '\\\\')
        source += `[${inner}]`
        i = close
      }
    } else source += char.replace(/[.+^${}()|\\\]]/g, '\\$&')
  }
  const dotted = segment.startsWith('.')
  let regex: RegExp
  try {
    regex = new RegExp(`^${source}$`, 's')
  } catch {
    // A bracket bash reads otherwise than here: every name is looked at, a superset.
    return () => true
  }
  return (name) => (dotted || !name.startsWith('.')) && regex.test(name)
}
