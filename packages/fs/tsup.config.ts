import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/testing.ts'],
  format: ['esm'],
  target: 'node20',
  dts: { compilerOptions: { composite: false } },
  clean: true,
  sourcemap: true,
  external: ['vitest'],
})
