// Where the project's knowledge lies: the project's root (the nearest folder holding `.git`,
// else the session's cwd), the folders from one folder down to another, and the person's own
// places — `$XDG_CONFIG_HOME/dsh` (else `~/.config/dsh`) and `~/.agents`. Cordis-free.
import { stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join, relative, resolve, sep } from 'node:path'

/** The person's places, from the environment the process was started with. */
export interface KnowledgeHome {
  /** The person's home folder (`HOME`). */
  home: string
  /** `$XDG_CONFIG_HOME/dsh`, else `~/.config/dsh`. */
  config: string
}

export function knowledgeHomeOf(env: NodeJS.ProcessEnv = process.env): KnowledgeHome {
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir()
  const xdg = env.XDG_CONFIG_HOME
  const configHome = xdg !== undefined && xdg !== '' ? xdg : join(home, '.config')
  return { home, config: join(configHome, 'dsh') }
}

/** True when `path` is `folder` or lies under it (both absolute and normalised). */
export function isWithin(folder: string, path: string): boolean {
  const prefix = folder.endsWith(sep) ? folder : folder + sep
  return path === folder || path.startsWith(prefix)
}

/** The nearest folder from `cwd` up that holds `.git` (a folder or a worktree's file), else `cwd`. */
export async function projectRootOf(cwd: string): Promise<string> {
  let folder = resolve(cwd)
  for (;;) {
    if (await exists(join(folder, '.git'))) return folder
    const parent = dirname(folder)
    if (parent === folder) return resolve(cwd)
    folder = parent
  }
}

/** `from`, then each folder below it down to `to` (inclusive); just `to` when it is not below. */
export function foldersDown(from: string, to: string): string[] {
  if (!isWithin(from, to)) return [to]
  const steps = relative(from, to)
    .split(sep)
    .filter((step) => step !== '')
  const folders = [from]
  for (const step of steps) folders.push(join(folders[folders.length - 1]!, step))
  return folders
}

/** Folders whose instruction files are never looked for (dependencies, version control). */
export function isIgnoredFolder(folder: string): boolean {
  return folder.split(sep).some((part) => part === 'node_modules' || part === '.git')
}

/** `path` as a person reads it: relative to `cwd` when inside it, `~/…` under home, else as is. */
export function displayPath(path: string, cwd: string, home: string): string {
  if (isWithin(cwd, path) && path !== cwd) return relative(cwd, path)
  if (isWithin(home, path) && path !== home) return `~/${relative(home, path)}`
  return path
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false // missing or unreadable: not there for our purpose
  }
}
