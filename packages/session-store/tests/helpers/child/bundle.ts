// Bundles tests/helpers/child/driver.ts (with the store's sources, resolved through the
// `@dsh/source` condition, and what they import) into one standalone .mjs, so a test can run
// the real FileSessionStore in a child `node` process without a build step. The approach of
// fs-local's tests/helpers/child/bundle.ts: tsup's build API (a devDependency). The agent
// package is read as its errors module alone: AgentError is the only value the store takes from
// it, and leaving out the rest (zod with its locales) halves the child's start-up, which the
// crash loop pays on every round. A new value import from the agent fails this bundle loudly.
import { chmod, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'tsup'

const AGENT_ERRORS = fileURLToPath(new URL('../../../../agent/src/errors.ts', import.meta.url))

/** Builds the driver into a fresh directory; returns the .mjs path and the directory. */
export async function bundleDriver(): Promise<{ script: string; directory: string }> {
  const directory = await mkdtemp(join(tmpdir(), 'dsh-store-driver-'))
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
      options.alias = { '@deepseek-ai/dsh-agent': AGENT_ERRORS }
    },
    config: false,
    silent: true,
    dts: false,
    sourcemap: false,
    splitting: false,
    clean: false,
  })
  await chmod(directory, 0o755)
  return { script: join(directory, 'driver.mjs'), directory }
}
