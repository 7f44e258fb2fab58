// Checks the workspace a session is created for: an absolute path to an existing directory.
// Synchronous on purpose, so `ctx.agents.create` stays synchronous; it runs once per session.
// Not a sandbox: the cwd is the base for relative tool paths, nothing more.
import { statSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { AgentError } from '../errors'

const hint = 'Give the absolute path of an existing directory, e.g. "/home/me/project".'

/**
 * The normalised directory (no trailing slash, no `..`), or an AgentError 'AGENT_BAD_CWD'.
 * `label` names the field in the message (`cwd`, `additionalDirectories[0]`).
 */
export function checkWorkspace(cwd: unknown, label = 'cwd'): string {
  if (typeof cwd !== 'string' || cwd === '') {
    throw badCwd(`${label} must be a non-empty string, got ${describe(cwd)}.`)
  }
  if (!isAbsolute(cwd)) {
    throw badCwd(`${label} "${cwd}" is a relative path.`)
  }
  const normalised = resolve(cwd)
  let isDirectory: boolean
  try {
    isDirectory = statSync(normalised).isDirectory()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw badCwd(`${label} "${cwd}" does not exist.`)
    }
    throw badCwd(`${label} "${cwd}" cannot be checked (${code ?? String(error)}).`)
  }
  if (!isDirectory) throw badCwd(`${label} "${cwd}" is not a directory.`)
  return normalised
}

function badCwd(problem: string): AgentError {
  return new AgentError('AGENT_BAD_CWD', `${problem} ${hint}`)
}

function describe(value: unknown): string {
  if (value === '') return 'an empty string'
  return value === null ? 'null' : typeof value
}

/** The session's roots: the checked cwd first, then each added directory once. */
export function checkRoots(cwd: string, added: unknown): string[] {
  if (added === undefined) return [cwd]
  if (!Array.isArray(added)) {
    throw badCwd(`additionalDirectories must be an array of paths, got ${describe(added)}.`)
  }
  const roots = [cwd]
  added.forEach((directory, index) => {
    const root = checkWorkspace(directory, `additionalDirectories[${index}]`)
    if (!roots.includes(root)) roots.push(root)
  })
  return roots
}
