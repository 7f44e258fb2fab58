// One vitest project per package. Tests run on sources: the `@dsh/source` export condition
// points every workspace import at `src/`, so no build is needed before `vitest run`.
import { readdirSync } from 'node:fs'

const packages = readdirSync(new URL('./packages', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

export default packages.map((name) => ({
  ssr: { resolve: { conditions: ['@dsh/source'] } },
  resolve: { conditions: ['@dsh/source'] },
  test: {
    name,
    root: `packages/${name}`,
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
}))
