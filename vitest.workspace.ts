// One vitest project per package. Tests run on sources: the `@dsh/source` export condition
// points every workspace import at `src/`, so no build is needed before `vitest run` (the
// app's end-to-end tests build the bin they spawn in their global setup).
import { existsSync, readdirSync } from 'node:fs'

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
    // A package that needs something prepared once (the app's e2e tests need the built bin)
    // has a tests/helpers/global-setup.ts.
    globalSetup: existsSync(
      new URL(`./packages/${name}/tests/helpers/global-setup.ts`, import.meta.url),
    )
      ? ['tests/helpers/global-setup.ts']
      : [],
  },
}))
