// The build every package shares: ESM for Node 20 with type declarations and source maps.
// Each package's tsup.config.ts names its entry files and anything it keeps external.
import { defineConfig } from 'tsup'
import type { Options } from 'tsup'

export function packageBuild(entry: NonNullable<Options['entry']>, options: Options = {}) {
  return defineConfig({
    entry,
    format: ['esm'],
    target: 'node20',
    // tsup's declaration build does not take project references: composite off for it.
    dts: { compilerOptions: { composite: false } },
    clean: true,
    sourcemap: true,
    ...options,
  })
}
