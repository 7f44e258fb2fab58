// The `./testing` face of shell-sandbox: the one place every package's tests learn whether a
// sandbox works here, so a test that needs bubblewrap runs where it works and is skipped where
// it does not (macOS, a container without user namespaces, a Linux box without the package),
// with one line saying why and how to install it. Under `CI=true` nothing is skipped: such a
// suite runs and fails loudly, since a CI that cannot sandbox must be mended, not ignored.
// The check is probeSandbox's, on the `bwrap` the PATH gives (as the app's); imports vitest,
// never load it in product code.
import { describe, it } from 'vitest'
import { probeSandbox } from './probe'

let probed: { why: string | undefined } | undefined
let told = false

/** Why no sandbox works here (`undefined`: one does), checked once per test process. */
export function sandboxMissing(): string | undefined {
  probed ??= { why: probeSandbox('bwrap') }
  return probed.why
}

/** The test run must not skip: `CI` is set to `true` (or `1`). */
export function mustNotSkip(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI === 'true' || env.CI === '1'
}

/** The one line a skipped run prints. */
export function skipLine(why: string): string {
  return (
    `Skipping the tests that need a sandbox: ${why}. To run them, install bubblewrap ` +
    '(Debian or Ubuntu: `sudo apt-get install bubblewrap`; Fedora: `sudo dnf install bubblewrap`).'
  )
}

/** Whether the tests that need a sandbox are skipped here; says why once when they are. */
export function skipWithoutSandbox(): boolean {
  const why = sandboxMissing()
  if (why === undefined || mustNotSkip()) return false
  if (!told) {
    told = true
    process.stderr.write(`${skipLine(why)}\n`)
  }
  return true
}

/** `describe`, skipped (with the one line) where no sandbox works, never under `CI=true`. */
export function describeWithSandbox(name: string, body: () => void): void {
  if (skipWithoutSandbox()) {
    describe.skip(name, body)
    return
  }
  describe(name, () => {
    const why = sandboxMissing()
    // Under CI with no sandbox: the cause, first, before the failures it brings.
    if (why !== undefined) it('has a working sandbox', () => failWith(why))
    body()
  })
}

function failWith(why: string): never {
  throw new Error(`CI=true, and no sandbox works here: ${why}.`)
}

/** `it`, skipped like describeWithSandbox. */
export function itWithSandbox(name: string, body: () => Promise<void> | void): void {
  if (skipWithoutSandbox()) it.skip(name, body)
  else it(name, body)
}
