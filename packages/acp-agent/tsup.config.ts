// The package's build: the library face and the demo as ES modules; the bin as two files.
// dist/bin.cjs (start.ts as CommonJS) is the small start that runs dist/dsh-acp.cjs from its
// code cache (dist/bin.js, the same start as an ES module, stays for settings that name it);
// dist/dsh-acp.cjs is the program: bin.ts bundled with
// every dependency into one minified CommonJS file: a classic script, so V8 can keep a code
// cache for it (Node 20 keeps none for ES modules). The bundle is built after the modules, so
// their `clean` cannot remove it, and the build ends by starting the bin once as an editor does
// (`initialize`, then `session/new` in a temp directory, then a prompt), which checks that it
// starts and writes its first code cache with every function a start and a first prompt run (a
// `--version` run would leave the session's out, to be compiled at each start). dist/bin-modules.js is bin.ts
// over the packages' dist modules, for CPU profiles that tell the packages apart.
// Left out of the bundle, and so dependencies of this package: what finds files beside its own
// code at run time (ripgrep's binary, tree-sitter's WebAssembly); `shims` gives the bundled
// code an `import.meta.url`, the bundle's own. dist/markdown-worker.js is the web seam's HTML →
// Markdown worker with its parser inside: the bundled seam starts it from beside the bundle.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { build } from 'tsup'
import { packageBuild } from '../../tsup.package'

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string
}
/** The dependencies left outside the bundle; the packed app lists exactly these (scripts/pack.mjs). */
const externals = JSON.parse(
  readFileSync(new URL('./bundle-externals.json', import.meta.url), 'utf8'),
) as string[]

/** What the bundle leaves to a file of its own under dist/vendor/, required when first needed. */
interface Vendored {
  /** The file's name: dist/vendor/<name>.cjs. */
  name: string
  /** The module built into it. */
  entry: string
  /** Whether an import (its specifier, and the folder of the file importing it) is of it. */
  is(path: string, resolveDir: string): boolean
}

/** `name` (a package or a package's subpath), as the workspace package `from` resolves it. */
function vendoredPackage(name: string, from: string): Vendored {
  const entry = createRequire(resolve(from, 'package.json')).resolve(name)
  return { name: name.replaceAll('/', '-'), entry, is: (path) => path === name }
}

/** A workspace package's own module (its built file `file`), imported relatively. */
function vendoredModule(name: string, file: string): Vendored {
  const entry = resolve(file)
  return { name, entry, is: (path, dir) => path.startsWith('.') && resolve(dir, path) === entry }
}

/**
 * What the program loads only when a feature first needs it, each built into its own file and
 * left out of the bundle, so a start neither reads nor holds it (half the source, 1.5 MiB
 * resident): undici at the first web request, yaml at the first front matter, vscode-jsonrpc at
 * the first language server, the MCP SDK's parts (with the zod and ajv they bring) at the first
 * MCP server.
 */
const VENDORED: Vendored[] = [
  vendoredPackage('undici', '../web'),
  vendoredPackage('yaml', '../knowledge'),
  vendoredPackage('vscode-jsonrpc/node', '../diagnostics-lsp'),
  vendoredModule('mcp-sdk', '../mcp/dist/sdk-modules.js'),
]

/** Points the bundle's imports of what is vendored at its file beside the bundle. */
const vendorPlugin = {
  name: 'vendor',
  setup(build: { onResolve: (options: { filter: RegExp }, on: OnResolve) => unknown }): void {
    build.onResolve({ filter: /./ }, ({ path, resolveDir }) => {
      const found = VENDORED.find((vendored) => vendored.is(path, resolveDir))
      return found && { path: `./vendor/${found.name}.cjs`, external: true }
    })
  },
}
type OnResolve = (args: {
  path: string
  resolveDir: string
}) => { path: string; external: boolean } | undefined

/** The CommonJS wrapper the bundle is written in (its parameters as Node's own wrapper's). */
const BUNDLE_WRAPPER = '(function (exports, require, module, __filename, __dirname) {'

async function buildBundle(): Promise<void> {
  await build({
    config: false,
    entry: { 'dsh-acp': 'src/bin.ts' },
    format: ['cjs'],
    platform: 'node',
    target: 'node20',
    outExtension: () => ({ js: '.cjs' }),
    noExternal: [new RegExp(`^(?!(${externals.map(escapeRegExp).join('|')})(/|$))`)],
    external: externals,
    shims: true,
    minify: true,
    sourcemap: true,
    clean: false,
    dts: false,
    silent: true,
    define: { DSH_ACP_VERSION: JSON.stringify(pkg.version) },
    // The program as the CommonJS wrapper's function expression, which the start compiles as
    // the file is (src/start/bundle-script.ts): not a file to run with node on its own.
    banner: { js: BUNDLE_WRAPPER },
    footer: { js: '})' },
    // Every byte ASCII (non-ASCII text escaped, licence comments in dsh-acp.cjs.LEGAL.txt if any):
    // the start reads it as Latin-1 into a one-byte string, half the memory of the two-byte
    // string one non-ASCII character makes, with no UTF-8 decoding.
    // A vm script has no loader for `import()`: every import() of what is left outside the
    // bundle (node's modules, the vendored packages) becomes a require().
    esbuildOptions(options) {
      options.charset = 'ascii'
      options.legalComments = 'external'
      options.supported = { ...options.supported, 'dynamic-import': false }
    },
    esbuildPlugins: [vendorPlugin],
  })
  assertAscii(resolve('dist/dsh-acp.cjs'))
  assertWrapped(resolve('dist/dsh-acp.cjs'))
  await build({
    config: false,
    entry: Object.fromEntries(VENDORED.map(({ name, entry }) => [`vendor/${name}`, entry])),
    format: ['cjs'],
    platform: 'node',
    target: 'node20',
    outExtension: () => ({ js: '.cjs' }),
    noExternal: [/./],
    minify: true,
    clean: false,
    dts: false,
    silent: true,
  })
  await build({
    config: false,
    entry: { 'markdown-worker': '../web/src/markdown-worker.js' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    noExternal: [/./],
    minify: true,
    clean: false,
    dts: false,
    silent: true,
  })
  // The start as CommonJS: node loads no ES module loader for it (0.4 MiB less at the answer).
  await build({
    config: false,
    entry: { bin: 'src/start/start.ts' },
    format: ['cjs'],
    platform: 'node',
    target: 'node20',
    outExtension: () => ({ js: '.cjs' }),
    shims: true,
    sourcemap: true,
    clean: false,
    dts: false,
    silent: true,
  })
  const dir = mkdtempSync(join(tmpdir(), 'dsh-acp-warm-'))
  try {
    await startOnce(resolve('dist/bin.cjs'), dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

/**
 * Starts `bin` in `dir`, opens a session, sends a prompt that a one-turn scripted model answers
 * at once (no key, no network), closes stdin; rejects unless the prompt was answered and the
 * bin exited 0.
 */
function startOnce(bin: string, dir: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: join(dir, 'config') }
  for (const key of ['DSH_API_KEY', 'DEEPSEEK_API_KEY', 'OPENAI_API_KEY']) delete env[key]
  const script = join(dir, 'warm-script.json')
  writeFileSync(script, JSON.stringify({ turns: [{ text: 'Ready.' }] }))
  const args = ['--script', script, '--sessions', join(dir, 'sessions')]
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: dir,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  return new Promise((done, fail) => {
    let stdout = ''
    let stderr = ''
    let answered = false
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (stdout + chunk.toString()).split('\n')
      stdout = lines.pop() ?? ''
      for (const line of lines) {
        const message = JSON.parse(line) as {
          id?: number
          result?: { sessionId?: string; stopReason?: string }
        }
        const sessionId = message.result?.sessionId
        if (message.id === 2 && sessionId !== undefined) {
          const prompt = [{ type: 'text', text: 'hello' }]
          send({ id: 3, method: 'session/prompt', params: { sessionId, prompt } })
        } else if (message.id === 3) {
          answered = message.result?.stopReason === 'end_turn'
          child.stdin.end()
        }
      }
    })
    child.on('error', fail)
    child.on('exit', (code) => {
      if (answered && code === 0) done()
      else fail(new Error(`the built bin did not answer a prompt (exit ${code}):\n${stderr}`))
    })
    const send = (message: object): void => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
    }
    send({ id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } })
    send({ id: 2, method: 'session/new', params: { cwd: dir, mcpServers: [] } })
  })
}

/**
 * Fails the build unless the bundle is the wrapper's function expression, between its `#!` line
 * and its source map's.
 */
function assertWrapped(file: string): void {
  const text = readFileSync(file, 'latin1')
  const start = text.startsWith('#!') ? text.indexOf('\n') + 1 : 0
  const end = text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '').trimEnd()
  if (!text.startsWith(BUNDLE_WRAPPER, start) || !end.endsWith('})'))
    throw new Error(`${file} is not wrapped in ${BUNDLE_WRAPPER}…}): the start compiles it as is`)
}

/** Fails the build when the bundle has a byte the start's Latin-1 read would misread. */
function assertAscii(file: string): void {
  const bytes = readFileSync(file)
  const at = bytes.findIndex((byte) => byte > 0x7f)
  if (at >= 0)
    throw new Error(`${file} has a non-ASCII byte at offset ${at}: the start reads it as Latin-1`)
}

export default packageBuild(
  {
    index: 'src/index.ts',
    demo: 'src/demo.ts',
    bin: 'src/start/start.ts',
    'bin-modules': 'src/bin.ts',
  },
  { onSuccess: buildBundle },
)
