// Running the `git` binary for the snapshot store, isolated from the person's own git: no
// system or global config, no hooks, no fsmonitor, none of the caller's GIT_* variables (a
// GIT_DIR or GIT_INDEX_FILE inherited from a hook would point us at the person's repository).
// Cordis-free; `gitVersion` says whether git is there at all.
import { spawn } from 'node:child_process'

export interface GitRun {
  /** The program (default `git`). */
  program: string
  gitDir: string
  workTree?: string
  /** The index file this store owns. */
  indexFile?: string
}

const ISOLATION = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.autocrlf=false',
  '-c',
  'core.safecrlf=false',
  '-c',
  'core.fileMode=true',
  '-c',
  'core.symlinks=true',
  '-c',
  'core.quotePath=false',
  '-c',
  'gc.auto=0',
]

/** The environment every git run gets: the caller's without GIT_*, and no user config. */
export function gitEnv(run: GitRun): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('GIT_')) env[key] = value
  env.GIT_CONFIG_NOSYSTEM = '1'
  env.GIT_CONFIG_GLOBAL = '/dev/null'
  env.GIT_TERMINAL_PROMPT = '0'
  env.GIT_DIR = run.gitDir
  if (run.workTree !== undefined) env.GIT_WORK_TREE = run.workTree
  if (run.indexFile !== undefined) env.GIT_INDEX_FILE = run.indexFile
  return env
}

/**
 * Runs git with `args`; resolves with its stdout, rejects with its stderr on a non-zero exit.
 * A path it is given is the file's own name, never a glob or `:(magic)` (`--literal-pathspecs`),
 * unless `literal` is false (for `check-ignore`, which refuses the option: give it `./`-led
 * paths).
 */
export function git(
  run: GitRun,
  args: readonly string[],
  input?: Buffer | string,
  literal = true,
): Promise<Buffer> {
  const options = literal ? [...ISOLATION, '--literal-pathspecs'] : ISOLATION
  return new Promise((resolve, reject) => {
    const child = spawn(run.program, [...options, ...args], {
      env: gitEnv(run),
      cwd: run.workTree ?? run.gitDir,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out))
      else {
        const text = Buffer.concat(err).toString('utf8').trim()
        reject(new Error(`git ${args[0] ?? ''} failed (${code}): ${text}`))
      }
    })
    child.stdin.on('error', () => {
      // git exited before reading all of its input: its exit code tells what went wrong.
    })
    child.stdin.end(input)
  })
}

/** `git --version`'s version (e.g. `2.39.5`), or undefined when git cannot be run. */
export function gitVersion(program = 'git'): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(program, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] })
    let text = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
    child.on('error', () => resolve(undefined))
    child.on('close', (code) =>
      resolve(code === 0 ? /(\d+\.\d+[\w.]*)/.exec(text)?.[1] : undefined),
    )
  })
}

/** git's `-z` output, entry by entry. */
export function splitZ(out: Buffer): string[] {
  return out
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry !== '')
}
