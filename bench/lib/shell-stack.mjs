// The shell tools the benchmarks drive, from the BUILT packages: the app's file stack (with the
// permission layer) plus a shell provider (LocalShell, or SandboxShell as the app mounts it by
// default) and tool-shell, as the app mounts them.
import { dist, loadStack } from './stack.mjs'

/**
 * The stack on `cwd` with the shell tools; the whole output of cut results goes to `outputDir`.
 * With `sandbox`, a host without a working sandbox is refused here, which makes SandboxShell
 * check bwrap now; `checkNow: false` leaves that check where the app makes it (the caller then
 * checks `unavailable` itself, after what it times).
 */
export async function loadShellStack({ cwd, outputDir, sandbox = false, checkNow = true }) {
  const ctx = await loadStack({ cwd, policy: true, app: true })
  const { default: Shell } = await import(dist(sandbox ? 'shell-sandbox' : 'shell-local'))
  const ToolShell = await import(dist('tool-shell'))
  await ctx.plugin(Shell, sandbox ? { visible: [outputDir] } : {})
  if (sandbox && checkNow && ctx.shell.unavailable !== undefined) {
    throw new Error(`no sandbox here: ${ctx.shell.unavailable}`)
  }
  await ctx.plugin(ToolShell, { outputDir })
  if (!ctx.tools.get('bash'))
    throw new Error('the shell tools did not load (is every package built?)')
  return ctx
}

/** A session in `mode`, as the permission layer reads it. */
export function shellAgent(cwd, mode = 'full-access') {
  return { session: { header: { id: 'bench-shell', cwd, roots: [cwd], mode } } }
}
