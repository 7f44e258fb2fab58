import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts', 'src/demo.ts'],
  format: ['esm'],
  target: 'node20',
  dts: { compilerOptions: { composite: false } },
  clean: true,
  sourcemap: true,
})
