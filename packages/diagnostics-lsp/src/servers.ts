// The servers dsh knows, and how one is found for a file: TypeScript and JavaScript through
// typescript-language-server (a dependency of this package) over the project's own `typescript`
// (skipped when the project has none), Python through pyright or basedpyright (a virtual
// environment or node_modules/.bin from the file's folder upward, then PATH), Go, Rust and C/C++
// through gopls, rust-analyzer and clangd on PATH. A server's root is the nearest folder above the file holding one of its markers.
// Reads the disk (sync, a few stat calls), starts nothing.
import { accessSync, constants, existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, dirname, extname, join, parse } from 'node:path'

/** One language server, as dsh knows it or a config file describes it. */
export interface ServerSpec {
  name: string
  /** File extensions (with the dot) it checks, each with its LSP language id. */
  languages: Readonly<Record<string, string>>
  /** Files whose folder is a project root for it (the nearest above the file). */
  rootMarkers: readonly string[]
  /** The argv that starts it for `root`, or why it cannot be started for this file. */
  command(root: string, file: string): string[] | { missing: string }
  /** `initializationOptions` of its `initialize`. */
  initializationOptions?(root: string, file: string): unknown
  /** Variables set in its environment, over the agent's. */
  env?(root: string, file: string): Record<string, string> | undefined
  /** It is tsserver behind typescript-language-server: diagnostics are pulled through it. */
  tsserver?: boolean
}

const TS_LANGUAGES = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
}

const require = createRequire(import.meta.url)

/** typescript-language-server's entry, from this package's dependencies. */
function typescriptServerEntry(): string {
  return join(dirname(require.resolve('typescript-language-server/package.json')), 'lib/cli.mjs')
}

/** The folder of the project's own `typescript` (its `lib`), found from `from` upward. */
export function projectTypescript(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const lib = join(dir, 'node_modules', 'typescript', 'lib')
    if (existsSync(join(lib, 'tsserver.js'))) return lib
    if (dirname(dir) === dir) return undefined
  }
}

export const BUILT_IN_SERVERS: readonly ServerSpec[] = [
  {
    name: 'typescript',
    languages: TS_LANGUAGES,
    rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
    tsserver: true,
    command: (_root, file) =>
      projectTypescript(dirname(file)) === undefined
        ? { missing: 'the project has no typescript in node_modules' }
        : [process.execPath, typescriptServerEntry(), '--stdio'],
    initializationOptions: (_root, file) => ({
      // One tsserver, not a syntax server beside it: dsh asks only for diagnostics.
      tsserver: { path: projectTypescript(dirname(file)), useSyntaxServer: 'never' },
      // No typings download: the server must not reach the network.
      preferences: { includePackageJsonAutoImports: 'off' },
      disableAutomaticTypingAcquisition: true,
    }),
  },
  {
    name: 'python',
    languages: { '.py': 'python', '.pyi': 'python' },
    rootMarkers: [
      'pyrightconfig.json',
      'pyproject.toml',
      'setup.py',
      'setup.cfg',
      'requirements.txt',
    ],
    command: (_root, file) => {
      // The project's own first (the nearest folder, either server), then PATH.
      const found =
        firstProgram(PYTHON_SERVERS, pythonBinFolders(dirname(file))) ??
        firstProgram(PYTHON_SERVERS, pathFolders())
      return found === undefined
        ? { missing: 'neither pyright-langserver nor basedpyright-langserver is installed' }
        : [found, '--stdio']
    },
    // Run as in the project's virtual environment, activated: its python is the one on PATH,
    // so the server resolves imports against the packages installed there.
    env: (_root, file) => activatedVenv(dirname(file)),
  },
  onPath('go', { '.go': 'go' }, ['go.mod', 'go.work'], ['gopls']),
  onPath('rust', { '.rs': 'rust' }, ['Cargo.toml'], ['rust-analyzer']),
  onPath(
    'c',
    { '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp' },
    ['compile_commands.json', 'compile_flags.txt', '.clangd', 'CMakeLists.txt'],
    ['clangd'],
  ),
]

/** The Python servers dsh knows, the first found wins. */
const PYTHON_SERVERS = ['pyright-langserver', 'basedpyright-langserver']

/**
 * Where a project keeps its own Python tools, nearest first from `from` upward: a virtual
 * environment's `bin` (`.venv`, `venv`: a workspace's one serves its members too) and
 * `node_modules/.bin` (pyright installed from npm).
 */
export function pythonBinFolders(from: string): string[] {
  const folders: string[] = []
  for (let dir = from; ; dir = dirname(dir)) {
    folders.push(join(dir, '.venv', 'bin'), join(dir, 'venv', 'bin'))
    folders.push(join(dir, 'node_modules', '.bin'))
    if (dirname(dir) === dir) return folders
  }
}

/**
 * What activating the nearest virtual environment from `from` upward sets (one with a
 * `bin/python`): VIRTUAL_ENV, and its `bin` first on PATH. Undefined when there is none.
 */
export function activatedVenv(from: string): Record<string, string> | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    for (const venv of [join(dir, '.venv'), join(dir, 'venv')]) {
      const bin = join(venv, 'bin')
      if (!isExecutable(join(bin, 'python'))) continue
      return { VIRTUAL_ENV: venv, PATH: [bin, ...pathFolders()].join(delimiter) }
    }
    if (dirname(dir) === dir) return undefined
  }
}

function onPath(
  name: string,
  languages: Record<string, string>,
  rootMarkers: string[],
  argv: string[],
): ServerSpec {
  const [program = '', ...args] = argv
  return {
    name,
    languages,
    rootMarkers,
    command: () => {
      const found = findProgram(program, [])
      return found === undefined ? { missing: `${program} is not on PATH` } : [found, ...args]
    },
  }
}

/** `program` as a path (when it has a slash), else found in `first` then on PATH. */
export function findProgram(program: string, first: readonly string[]): string | undefined {
  if (program.includes('/')) return isExecutable(program) ? program : undefined
  return firstProgram([program], [...first, ...pathFolders()])
}

/** The first of `programs` in the first of `folders` that holds one. */
function firstProgram(programs: readonly string[], folders: readonly string[]) {
  for (const dir of folders) {
    const found = programs.map((name) => join(dir, name)).find(isExecutable)
    if (found !== undefined) return found
  }
  return undefined
}

function pathFolders(): string[] {
  return (process.env.PATH ?? '').split(delimiter).filter(Boolean)
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The server for `file` among `specs` (the first that lists its extension), with its root. */
export function serverFor(
  specs: readonly ServerSpec[],
  file: string,
  fallbackRoot: string,
): { spec: ServerSpec; root: string; languageId: string } | undefined {
  const ext = extname(file).toLowerCase()
  for (const spec of specs) {
    const languageId = spec.languages[ext]
    if (languageId === undefined) continue
    return { spec, root: rootOf(file, spec.rootMarkers, fallbackRoot), languageId }
  }
  return undefined
}

/** The nearest folder above `file` holding a marker; else `fallback` (the session workspace). */
export function rootOf(file: string, markers: readonly string[], fallback: string): string {
  const top = parse(file).root
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (markers.some((marker) => existsSync(join(dir, marker)))) return dir
    if (dir === top || dirname(dir) === dir) return fallback
  }
}
