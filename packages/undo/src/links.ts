// Paths a walk lists that lie beyond a link: `src/c.txt` once a command made `src` a link to a
// folder (in the root or out of it). Their bytes are not the root's own (reading them would
// read through the link), and git refuses to take them in ("beyond a symbolic link"): for the
// snapshots such a file is gone, and the link is a file of its own. Cordis-free.
import { lstat } from 'node:fs/promises'
import { join } from 'node:path'

/** Which of `paths` (relative to `root`, `/`-separated) have a folder on their way that is a link. */
export async function beyondLinks(root: string, paths: readonly string[]): Promise<Set<string>> {
  const folders = new Map<string, Promise<boolean>>()
  const isLink = (folder: string): Promise<boolean> => {
    let known = folders.get(folder)
    if (known === undefined) {
      known = lstat(join(root, folder)).then(
        (info) => info.isSymbolicLink(),
        () => false,
      )
      folders.set(folder, known)
    }
    return known
  }
  const found = new Set<string>()
  for (const path of paths) {
    const parts = path.split('/')
    for (let end = 1; end < parts.length; end++) {
      if (await isLink(parts.slice(0, end).join('/'))) {
        found.add(path)
        break
      }
    }
  }
  return found
}
