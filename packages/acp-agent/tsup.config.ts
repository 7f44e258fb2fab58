// The package's build: the library face and the demo as ES modules; the bin as two files.
// dist/bin.js (start.ts) is the small start that runs dist/dsh-acp.cjs, bin.ts bundled with
// every dependency into one minified CommonJS file: a classic script, so V8 can keep a code
// cache for it (Node 20 keeps none for ES modules). The bundle is built after the modules, so
// their `clean` cannot remove it, and the build ends by running the bin once (`--version`),
// which checks that it starts and writes its first code cache. dist/bin-modules.js is bin.ts
// over the packages' dist modules, for CPU profiles that tell the packages apart.
// Left out of the bundle, and so dependencies of this package: what finds files beside its own
// code at run time (ripgrep's binary, tree-sitter's WebAssembly); `shims` gives the bundled
// code an `import.meta.url`, the bundle's own.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { build } from 'tsup'
import { packageBuild } from '../../tsup.package'

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string
}

async function buildBundle(): Promise<void> {
  await build({
    config: false,
    entry: { 'dsh-acp': 'src/bin.ts' },
    format: ['cjs'],
    platform: 'node',
    target: 'node20',
    outExtension: () => ({ js: '.cjs' }),
    noExternal: [/^(?!@vscode\/ripgrep|web-tree-sitter|tree-sitter-bash)/],
    external: ['@vscode/ripgrep', 'web-tree-sitter', 'tree-sitter-bash'],
    shims: true,
    minify: true,
    sourcemap: true,
    clean: false,
    dts: false,
    silent: true,
    define: { DSH_ACP_VERSION: JSON.stringify(pkg.version) },
  })
  execFileSync(process.execPath, ['dist/bin.js', '--version'], { stdio: 'inherit' })
}

export default packageBuild(
  {
    index: 'src/index.ts',
    demo: 'src/demo.ts',
    bin: 'src/start.ts',
    'bin-modules': 'src/bin.ts',
  },
  { onSuccess: buildBundle },
)
