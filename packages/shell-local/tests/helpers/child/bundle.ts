// Bundles tests/helpers/child/driver.ts (with the package sources it imports, resolved through the
// `@dsh/source` condition, and its dependencies) into one standalone .mjs, so a test can run
// the real LocalShell in a child `node` process without a build step. Uses tsup's build
// API (the workspace's build tool, a root devDependency).
import { chmod, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'tsup'

/** Builds the driver into a fresh world-readable directory; returns the .mjs path. */
export async function bundleDriver(): Promise<{ script: string; directory: string }> {
  const directory = await mkdtemp(join(tmpdir(), 'dsh-driver-'))
  await build({
    entry: { driver: fileURLToPath(new URL('./driver.ts', import.meta.url)) },
    outDir: directory,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    noExternal: [/.*/],
    outExtension: () => ({ js: '.mjs' }),
    esbuildOptions: (options) => {
      options.conditions = ['@dsh/source']
    },
    config: false,
    silent: true,
    dts: false,
    sourcemap: false,
    splitting: false,
    clean: false,
  })
  await chmod(directory, 0o755)
  const script = join(directory, 'driver.mjs')
  await chmod(script, 0o644)
  return { script, directory }
}
