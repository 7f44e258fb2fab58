// Child: the edit tool without and with ctx.diagnostics on a generated TypeScript project.
// Args: { files, later }. Builds the project (module i imports modules i-1 and i-2), links this
// repository's typescript into it, times edits of the last module without diagnostics, then
// with LspDiagnostics as the app loads it (the read-only sandbox where bwrap works): the first
// edit (the server starts) and `later` edits after it, alternately breaking and mending a type
// of the middle module (two modules import it).
// Reports the medians, the server group's resident memory, and whether the errors were right.
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { childArgs, report } from '../lib/measure.mjs'
import { dist } from '../lib/stack.mjs'
import { median } from '../lib/stats.mjs'

const { files, later } = childArgs()
const packages = new URL('../../packages/', import.meta.url)
const require = createRequire(new URL('diagnostics-lsp/package.json', packages))
const { Context } = await import(pathToFileURL(require.resolve('cordis')).href)
const typescript = dirname(
  createRequire(new URL('acp-testing/package.json', packages)).resolve('typescript/package.json'),
)

const root = mkdtempSync(join(tmpdir(), 'dsh-bench-diagnostics-'))
mkdirSync(join(root, 'src'))
mkdirSync(join(root, 'node_modules'))
symlinkSync(typescript, join(root, 'node_modules', 'typescript'))
writeFileSync(join(root, 'package.json'), '{ "name": "bench", "private": true }\n')
writeFileSync(
  join(root, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'es2022',
      module: 'esnext',
      moduleResolution: 'bundler',
    },
    include: ['src'],
  }),
)
for (let i = 0; i < files; i++) {
  const imports = [i - 1, i - 2].filter((j) => j >= 0)
  const lines = imports.map((j) => `import { value${j} } from './m${j}'`)
  const sum = imports.map((j) => `value${j}`).join(' + ') || '0'
  lines.push(`export const value${i}: number = ${sum} + ${i}`)
  lines.push(`export function describe${i}(n: number): string {\n  return \`m${i}: \${n}\`\n}`)
  writeFileSync(join(root, 'src', `m${i}.ts`), lines.join('\n') + '\n')
}
const middle = Math.floor(files / 2)
const target = join(root, 'src', `m${middle}.ts`)
const session = {
  header: { id: 'bench', cwd: root },
  scope: { id: 'bench', mode: undefined, channels: {} },
}
const agent = { session }

async function mount(withDiagnostics) {
  const ctx = new Context()
  await ctx.plugin((await import(dist('fs-local'))).default, { cwd: root })
  await ctx.plugin((await import(dist('tools'))).default)
  await ctx.plugin((await import(dist('system-prompt'))).default)
  await ctx.plugin(await import(dist('tool-fs')))
  const LspDiagnostics = (await import(dist('diagnostics-lsp'))).default
  const fiber = withDiagnostics ? await ctx.plugin(LspDiagnostics, { startMs: 60_000 }) : undefined
  return { ctx, fiber }
}

let broken = false
/** Breaks the middle module's type (its importers break too), or mends it; timed. */
async function timedEdit({ ctx }) {
  const pair = [`value${middle}: number = `, `value${middle}: string = `]
  const [oldString, newString] = broken ? pair.reverse() : pair
  broken = !broken
  const start = performance.now()
  const result = await ctx.tools.execute({
    callId: `c${Math.random()}`,
    name: 'edit',
    arguments: { file_path: target, old_string: oldString, new_string: newString },
    session,
    agent,
  })
  const ms = performance.now() - start
  if (result.isError) throw new Error(result.content[0].text)
  return { ms, right: result.content[0].text.includes('error TS2322') === broken }
}

/** Resident memory of the server's processes (typescript-language-server, tsserver), bwrap's own left out. */
function serverRss() {
  let total = 0
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      if (!argv.includes('typescript-language-server') && !argv.includes('tsserver')) continue
      if (argv.startsWith('bwrap')) continue
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      if (rss) total += Number(rss[1]) * 1024
    } catch {
      // Gone meanwhile.
    }
  }
  return total
}

try {
  const plain = await mount(false)
  const base = []
  for (let i = 0; i < later + 1; i++) base.push((await timedEdit(plain)).ms)
  if (broken) await timedEdit(plain)
  const checked = await mount(true)
  const first = await timedEdit(checked)
  let errors = first.right
  const times = []
  for (let i = 0; i < later; i++) {
    const edit = await timedEdit(checked)
    times.push(edit.ms)
    errors &&= edit.right
  }
  const rssBytes = serverRss()
  const { probeSandbox } = await import(dist('shell-sandbox'))
  await checked.fiber.dispose()
  const sandboxed = probeSandbox('bwrap') === undefined
  report({
    baseline: median(base),
    first: first.ms,
    later: median(times),
    rssBytes,
    sandboxed,
    errors,
  })
} finally {
  rmSync(root, { recursive: true, force: true })
}
