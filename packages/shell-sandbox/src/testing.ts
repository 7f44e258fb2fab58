// The `./testing` face of shell-sandbox: the one place every package's tests learn whether a
// sandbox works here, so a test that needs bubblewrap runs where it works and is skipped where
// it does not (macOS, a container without user namespaces, a Linux box without the package),
// with one line saying why and how to install it. Under `CI=true` nothing is skipped: such a
// suite runs and fails loudly, since a CI that cannot sandbox must be mended, not ignored;
// except in a run that hides bwrap on purpose (`DSH_TEST_NO_SANDBOX=1`), where it must be
// missing.
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

/**
 * The run hides bubblewrap on purpose (`DSH_TEST_NO_SANDBOX=1`: CI's second run, in a mount
 * namespace where `bwrap` cannot be run), to prove the suite passes without it.
 */
export function hidesSandbox(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.DSH_TEST_NO_SANDBOX === '1'
}

/** The test run must not skip: `CI` is set to `true` (or `1`), unless it hides bwrap on purpose. */
export function mustNotSkip(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.CI === 'true' || env.CI === '1') && !hidesSandbox(env)
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
    // A run that says it hides bwrap, where it works, proves nothing about a machine without.
    if (hidesSandbox()) it('has bubblewrap hidden, as DSH_TEST_NO_SANDBOX=1 says', failHidden)
    body()
  })
}

function failWith(why: string): never {
  throw new Error(`CI=true, and no sandbox works here: ${why}.`)
}

function failHidden(): never {
  throw new Error(
    'DSH_TEST_NO_SANDBOX=1 says bubblewrap is hidden, yet a sandbox works: run the tests in a ' +
      'mount namespace that covers bwrap (see .ci/run), or without the variable.',
  )
}

/** `it`, skipped like describeWithSandbox. */
export function itWithSandbox(name: string, body: () => Promise<void> | void): void {
  if (skipWithoutSandbox()) it.skip(name, body)
  else it(name, body)
}
