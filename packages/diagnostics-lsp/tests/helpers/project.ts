// A real project on disk for the provider's tests: a mkdtemp folder with the given files and,
// unless asked not to, this repository's own `typescript` linked at node_modules/typescript
// (no network, no install). And the file tools over it with LspDiagnostics loaded, as a host
// mounts them: `edit` and `write` run through ctx.tools for a session on the project.
import { readFileSync, readdirSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Context } from 'cordis'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import * as ToolFs from '@deepseek-ai/dsh-tool-fs'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import type { ToolExecutionResult, ToolSessionChannels } from '@deepseek-ai/dsh-tools'
import { testExecution, testSession } from '@deepseek-ai/dsh-tools/testing'
import LspDiagnostics from '../../src/index'
import type { LspDiagnosticsConfig } from '../../src/index'

const require = createRequire(import.meta.url)
export const TYPESCRIPT_DIR = dirname(require.resolve('typescript/package.json'))
/** pyright's language server, from this package's dev dependency. */
export const PYRIGHT_LANGSERVER = join(
  dirname(require.resolve('pyright/package.json')),
  'langserver.index.js',
)

export async function makeProject(
  files: Record<string, string>,
  options: { typescript?: boolean } = {},
): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'dsh-lsp-')))
  const all = { 'package.json': '{ "name": "p", "private": true }\n', ...files }
  for (const [path, text] of Object.entries(all)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), text)
  }
  if (options.typescript !== false) {
    await mkdir(join(root, 'node_modules'), { recursive: true })
    await symlink(TYPESCRIPT_DIR, join(root, 'node_modules', 'typescript'))
  }
  return root
}

export const PYTHON_MODULE = 'def count() -> int:\n    return 1\n'

/**
 * A Python project (a pyproject.toml, no typescript) whose pyright-langserver is the dev
 * dependency's, in the project's `.venv/bin` (`venv`) or in the folder `path` names (`path`).
 * `path` is a PATH holding node and nothing else of the machine: no Python interpreter.
 */
export async function makePythonProject(
  files: Record<string, string>,
  where: 'venv' | 'path',
): Promise<{ root: string; path: string }> {
  const root = await makeProject({ 'pyproject.toml': '', ...files }, { typescript: false })
  const path = join(root, '.tools')
  await mkdir(path)
  await symlink(process.execPath, join(path, 'node'))
  const serverDir = where === 'venv' ? join(root, '.venv', 'bin') : path
  await mkdir(serverDir, { recursive: true })
  await symlink(PYRIGHT_LANGSERVER, join(serverDir, 'pyright-langserver'))
  return { root, path }
}

export const TSCONFIG = JSON.stringify({
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
  },
})

export interface Mounted {
  ctx: Context
  root: string
  run(name: string, args: Record<string, unknown>): Promise<ToolExecutionResult>
  /** Releases the session's agent (its lifetime fires). */
  release(): void
  dispose(): Promise<void>
}

export async function mountTools(
  root: string,
  config: LspDiagnosticsConfig = {},
  session: { mode?: string; channels?: ToolSessionChannels } = {},
): Promise<Mounted> {
  const ctx = new Context()
  await ctx.plugin(LocalFileSystem, { cwd: root })
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(SystemPrompt)
  await ctx.plugin(ToolFs)
  // No person's config: only the project's .dsh/lsp.json applies.
  const diagnostics = await ctx.plugin(LspDiagnostics, {
    configHome: join(root, '.no-config'),
    ...config,
  })
  const lifetime = new AbortController()
  const agent = {
    session: testSession({ id: 's1', cwd: root, ...session }),
    lifetime: lifetime.signal,
  }
  let calls = 0
  return {
    ctx,
    root,
    run: (name, args) =>
      ctx.tools.execute(
        testExecution(name, args, { callId: `c${++calls}`, session: agent.session, agent }),
      ),
    release: () => lifetime.abort(),
    dispose: async () => {
      await diagnostics.dispose()
      await rm(root, { recursive: true, force: true })
    },
  }
}

export function textOf(result: ToolExecutionResult): string {
  return result.content.map((block) => block.text).join('\n')
}

/** Command lines of the processes whose argv mentions `text`. */
export function processesWith(text: string): string[] {
  const found: string[] = []
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
      if (argv.includes(text)) found.push(argv)
    } catch {
      // Gone meanwhile.
    }
  }
  return found
}
