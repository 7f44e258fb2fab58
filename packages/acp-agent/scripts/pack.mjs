// Packs the app as a person installs it: `npm run pack:app` at the root builds every package,
// then this writes `packages/acp-agent/pack/deepseek-ai-dsh-<version>.tgz`. The tarball holds the
// built start (dist/bin.cjs; dist/bin.js, the same start as an ES module, for settings that name it), the bundle with every workspace package inside it
// (dist/dsh-acp.cjs) and what it loads from beside it when first needed (dist/vendor/), with the licence notices of what it bundles (dist/dsh-acp.cjs.LEGAL.txt when there are any; each vendored file keeps its own at its end), the HTML → Markdown worker it starts (dist/markdown-worker.js), its code cache, the README and a package.json whose only dependencies are
// what the bundle leaves outside it (ripgrep's binary and the bash grammar find files beside their
// own code), so `npm install -g ./<tarball>` needs no build and downloads nothing beyond the
// registry's packages. Usage: node scripts/pack.mjs [--out DIR]; prints the tarball's path.
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('..', import.meta.url))
const app = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'))
const externals = JSON.parse(readFileSync(join(here, 'bundle-externals.json'), 'utf8'))

/** What the tarball carries from dist/, each built by `npm run build`. */
const DIST_FILES = [
  'bin.cjs',
  'bin.js',
  'dsh-acp.cjs',
  'markdown-worker.js',
  // What the bundle requires from beside it when a feature first needs it (tsup.config.ts).
  'vendor/undici.cjs',
  'vendor/yaml.cjs',
  'vendor/vscode-jsonrpc-node.cjs',
  'vendor/mcp-sdk.cjs',
]
const CODE_CACHE = 'dsh-acp.cjs.code-cache'
/** The licence comments the bundle's modules carry, when they carry any (the vendored files keep theirs at their end). */
const LEGAL = 'dsh-acp.cjs.LEGAL.txt'

function main() {
  const outIndex = process.argv.indexOf('--out')
  const out = resolve(outIndex > 0 ? process.argv[outIndex + 1] : join(here, 'pack'))
  for (const file of DIST_FILES) {
    if (!existsSync(join(here, 'dist', file))) {
      console.error(`dist/${file} is missing: build first (npm run build at the repository root).`)
      process.exit(1)
    }
  }
  const staging = mkdtempSync(join(tmpdir(), 'dsh-pack-'))
  try {
    mkdirSync(join(staging, 'dist', 'vendor'), { recursive: true })
    for (const file of [...DIST_FILES, CODE_CACHE, LEGAL]) {
      const from = join(here, 'dist', file)
      if (existsSync(from)) copyFileSync(from, join(staging, 'dist', file))
    }
    copyFileSync(join(here, 'README.md'), join(staging, 'README.md'))
    writeFileSync(join(staging, 'package.json'), `${JSON.stringify(manifest(), null, 2)}\n`)
    mkdirSync(out, { recursive: true })
    const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], {
      cwd: staging,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
    })
    console.log(join(out, packed.trim().split('\n').pop()))
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/** The installed package's manifest: the app's facts, and only the bundle's outside modules. */
function manifest() {
  const dependencies = {}
  for (const name of externals) {
    const version = app.dependencies?.[name]
    if (version === undefined) throw new Error(`${name} is outside the bundle but not a dependency`)
    dependencies[name] = version
  }
  return {
    name: '@deepseek-ai/dsh',
    version: app.version,
    description: 'dsh, a coding agent for your editor over the Agent Client Protocol (dsh-acp).',
    type: 'module',
    license: app.license,
    repository: { type: 'git', url: 'https://github.com/deepseek-ai/dsh.git' },
    engines: app.engines,
    bin: { 'dsh-acp': './dist/bin.cjs' },
    files: ['dist', 'README.md'],
    dependencies,
  }
}

main()
