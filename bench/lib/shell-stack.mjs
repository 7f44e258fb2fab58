// The shell tools the benchmarks drive, from the BUILT packages: the app's file stack (with the
// permission layer) plus LocalShell and tool-shell, as the app mounts them.
import { dist, loadStack } from './stack.mjs'

/** The stack on `cwd` with the shell tools; the whole output of cut results goes to `outputDir`. */
export async function loadShellStack({ cwd, outputDir }) {
  const ctx = await loadStack({ cwd, policy: true, app: true })
  const { default: LocalShell } = await import(dist('shell-local'))
  const ToolShell = await import(dist('tool-shell'))
  await ctx.plugin(LocalShell, {})
  await ctx.plugin(ToolShell, { outputDir })
  if (!ctx.tools.get('bash'))
    throw new Error('the shell tools did not load (is every package built?)')
  return ctx
}

/** A session in `mode`, as the permission layer reads it. */
export function shellAgent(cwd, mode = 'full-access') {
  return { session: { header: { id: 'bench-shell', cwd, roots: [cwd], mode } } }
}
