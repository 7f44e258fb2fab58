// A real workspace on disk for scope cases: a `mkdtemp` directory (by its real path) with a
// root `work`, a second root `other`, a directory `outside`, and real symlinks between them.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface DiskWorkspace {
  /** The session root (a real directory). */
  work: string
  /** A second directory, for sessions with an additional root. */
  other: string
  /** A directory outside every root. */
  outside: string
  /** A symlink to `work`, for a session whose cwd is a link. */
  alias: string
  cleanup(): Promise<void>
}

export async function makeDiskWorkspace(): Promise<DiskWorkspace> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'dsh-permission-')))
  const work = join(base, 'work')
  const other = join(base, 'other')
  const outside = join(base, 'outside')
  const alias = join(base, 'alias')
  for (const dir of [work, other, outside]) await mkdir(dir)
  await writeFile(join(work, 'a.txt'), 'a\n')
  await writeFile(join(other, 'c.txt'), 'c\n')
  await writeFile(join(outside, 'secret.txt'), 's\n')
  // work/link.txt → outside/secret.txt, work/linkdir → outside, alias → work, work/loop → itself
  await symlink(join(outside, 'secret.txt'), join(work, 'link.txt'))
  await symlink(outside, join(work, 'linkdir'))
  await symlink(work, alias)
  await symlink(join(work, 'loop'), join(work, 'loop'))
  return { work, other, outside, alias, cleanup: () => rm(base, { recursive: true, force: true }) }
}
