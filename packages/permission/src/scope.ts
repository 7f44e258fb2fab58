// Scope: whether a call stays inside the session's roots, decided on real paths from ctx.fs
// (symlinks followed, a missing path judged by its nearest existing ancestor), never on the
// strings a model typed. A call that changes files (effect `write`) is judged with `change`,
// so the provider holds the change to the very directories judged here. Not a sandbox: it only
// tells the gate which cell of the table a call falls in. No `node:fs`: the provider says where
// a path really is.
import { resolve, sep } from 'node:path'
import type { FileSystem } from '@deepseek-ai/dsh-fs'
import type { ToolLocation } from '@deepseek-ai/dsh-tools'

/** The roots' real paths; a root the provider cannot explain is left out (nothing lies in it). */
export async function realRoots(
  fs: FileSystem,
  roots: readonly string[],
  cwd: string | undefined,
): Promise<string[]> {
  const real = await Promise.all(roots.map((root) => realPathOrUndefined(fs, root, cwd)))
  return real.filter((path) => path !== undefined)
}

/**
 * True when there is at least one location and every location's real path is one of the
 * `roots` (real paths) or lies under one. A location whose real path the provider cannot tell
 * (a link loop, a directory it may not search) is outside.
 */
export async function isInsideRoots(
  fs: FileSystem,
  locations: readonly ToolLocation[] | undefined,
  cwd: string | undefined,
  roots: readonly string[],
  call?: object,
  change?: boolean,
): Promise<boolean> {
  if (locations === undefined || locations.length === 0 || roots.length === 0) return false
  const real = await realPaths(fs, locations, cwd, call, change)
  return real.every((path) => path !== undefined && roots.some((root) => isWithin(root, path)))
}

/** Each location's real path (links followed), as the provider resolves it for the call. */
export function realPaths(
  fs: FileSystem,
  locations: readonly ToolLocation[],
  cwd: string | undefined,
  call?: object,
  change?: boolean,
): Promise<(string | undefined)[]> {
  return Promise.all(
    locations.map((location) => realPathOrUndefined(fs, location.path, cwd, call, change)),
  )
}

/**
 * The locations a change reaches through a link: each path (absolute) whose real path differs,
 * with that real path. The question names what will really change, not the link.
 */
export async function linkedTargets(
  fs: FileSystem,
  locations: readonly ToolLocation[] | undefined,
  cwd: string | undefined,
  call?: object,
): Promise<{ path: string; real: string }[]> {
  if (locations === undefined) return []
  const real = await realPaths(fs, locations, cwd, call, true)
  return locations.flatMap((location, index) => {
    const path = cwd === undefined ? location.path : resolve(cwd, location.path)
    const target = real[index]
    return target === undefined || target === path ? [] : [{ path, real: target }]
  })
}

/** `path` is `root` or lies under it; both are real paths. */
export function isWithin(root: string, path: string): boolean {
  const prefix = root.endsWith(sep) ? root : root + sep
  return path === root || path.startsWith(prefix)
}

async function realPathOrUndefined(
  fs: FileSystem,
  path: string,
  cwd: string | undefined,
  call?: object,
  change?: boolean,
): Promise<string | undefined> {
  try {
    // With the call, a provider resolves the path once for it: the tool sees the same place.
    // With `change`, the provider also keeps the directory judged, so the change lands there.
    return await fs.realPath(path, { cwd, call, change })
  } catch {
    // The provider cannot say where the path really is: treat it as outside every root, so
    // an unknown place is never taken for a known one (the caller asks, or refuses).
    return undefined
  }
}
