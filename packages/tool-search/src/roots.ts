// The place a search starts from: `path` (default: the session workspace) made absolute, what
// is there, and how ripgrep is pointed at it. ripgrep runs in the session workspace and is
// given the root relative to it (absolute when outside), so the paths it prints are already
// what the model is shown: relative to the workspace when inside it, else absolute.
import { stat } from 'node:fs/promises'
import { isAbsolute, relative, resolve, sep } from 'node:path'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { SearchError } from './errors'

export interface SearchRoot {
  /** The root, absolute (lexically resolved: the permission layer judges its real path). */
  absolute: string
  /** ripgrep's working directory: the session workspace. */
  cwd: string
  /** ripgrep's path argument; undefined when the root is the workspace itself. */
  arg: string | undefined
  /** What ripgrep prints before a path relative to the root (`''`, `src/`, `/abs/dir/`). */
  prefix: string
  isFile: boolean
}

/** The session workspace of a call. */
export function workspaceOf(exec: ToolExecution): string {
  return exec.session.header.cwd
}

/** The root's absolute path, worked out from the arguments alone (no I/O). */
export function rootPath(path: string | undefined, cwd: string): string {
  return resolve(cwd, path ?? '.')
}

/** The root of a call, checked to exist (a directory; a file too when `files` allows it). */
export async function searchRoot(
  path: string | undefined,
  exec: ToolExecution,
  tool: 'glob' | 'grep',
): Promise<SearchRoot> {
  const cwd = workspaceOf(exec)
  const absolute = rootPath(path, cwd)
  const info = await stat(absolute).catch(() => undefined)
  if (info === undefined) {
    throw new SearchError(
      'SEARCH_NOT_FOUND',
      `Path not found: ${absolute}. Give an existing directory${tool === 'grep' ? ' or file' : ''}, ` +
        'or leave path out to search the workspace.',
    )
  }
  const isFile = info.isFile()
  if (!info.isDirectory() && !(isFile && tool === 'grep')) {
    const what = isFile ? 'a file' : 'not a directory'
    throw new SearchError(
      'SEARCH_NOT_SEARCHABLE',
      `${absolute} is ${what}. ${tool} searches a directory: give the directory to search` +
        `${tool === 'glob' && isFile ? ', or read the file' : ''}.`,
    )
  }
  const rel = relative(cwd, absolute)
  const inside = rel === '' || !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
  const arg = rel === '' ? undefined : inside ? rel : absolute
  const prefix = arg === undefined || isFile ? '' : arg.endsWith(sep) ? arg : arg + sep
  return { absolute, cwd, arg, prefix, isFile }
}

/** A path as ripgrep printed it, relative to the root (`/`-separated), for glob matching. */
export function underRoot(root: SearchRoot, printed: string): string {
  if (root.isFile) return printed.slice(printed.lastIndexOf(sep) + 1)
  const rel = printed.startsWith(root.prefix) ? printed.slice(root.prefix.length) : printed
  return sep === '/' ? rel : rel.split(sep).join('/')
}
