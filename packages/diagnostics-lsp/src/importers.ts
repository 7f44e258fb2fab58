// The files of a project that import a given module: those a change to it may break, opened on
// the server before the change so it checks them after (tsserver reports open files only).
// Found by a walk of the root's source files (no node_modules, build output or hidden folders,
// at most `limit` files read) for an import specifier ending in the module's name. A heuristic:
// a path alias or a re-export through an index is not followed.
import { readFile, readdir } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'

const SKIPPED = new Set(['node_modules', 'dist', 'build', 'out', 'coverage'])

/** Importers kept per changed file. */
export const IMPORTERS_KEPT = 20

export async function findImporters(
  root: string,
  file: string,
  extensions: readonly string[],
  limit: number,
): Promise<string[]> {
  const name = basename(file, extname(file))
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const specifier = new RegExp(`['"][^'"\\n]*/${escaped}(\\.[cm]?[jt]sx?)?['"]`)
  const files = await sourceFiles(root, new Set(extensions), limit)
  const found: string[] = []
  for (const path of files) {
    if (path === file) continue
    let text: string
    try {
      text = await readFile(path, 'utf8')
    } catch {
      continue // Gone or unreadable since the walk: not an importer we can check.
    }
    if (text.includes(name) && specifier.test(text)) found.push(path)
    if (found.length >= IMPORTERS_KEPT) break
  }
  return found
}

async function sourceFiles(
  root: string,
  extensions: Set<string>,
  limit: number,
): Promise<string[]> {
  const files: string[] = []
  const queue = [root]
  while (queue.length > 0 && files.length < limit) {
    const dir = queue.shift()!
    let entries
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch {
      continue // An unreadable folder holds no file we can check.
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) queue.push(path)
      else if (entry.isFile() && extensions.has(extname(entry.name))) files.push(path)
      if (files.length >= limit) break
    }
  }
  return files
}
