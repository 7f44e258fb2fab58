// The tool stack the benchmarks drive, from the BUILT packages (run the build first): the
// stack's file keys (LocalFileSystem on `cwd`, FsPolicy when `policy`, ToolRegistry,
// SystemPrompt, ToolFs, ToolSearch) — what the app loads, minus the model and the agent host.
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'

const packages = new URL('../../packages/', import.meta.url)
const dist = (name, entry = 'index.js') => new URL(`${name}/dist/${entry}`, packages).href

/** Cordis, resolved from a package so the bench shares the packages' instance. */
async function loadCordis() {
  const require = createRequire(new URL('stack/package.json', packages))
  return import(pathToFileURL(require.resolve('cordis')).href)
}

/**
 * The fs stack on `cwd`; with `app`, as the app mounts it: the editor provider over the disk
 * (no editor here, so the disk serves) and the permission layer in `ask` mode. `maxEditBytes`
 * raises the disk's edit limit.
 */
export async function loadStack({ cwd, policy = false, app = false, maxEditBytes }) {
  const { Context } = await loadCordis()
  const Stack = await import(dist('stack'))
  const ctx = new Context()
  const more = app ? { fsAcp: {}, permission: { defaultMode: 'ask' } } : {}
  const fsLocal = { cwd, ...(maxEditBytes !== undefined && { maxEditBytes }) }
  const files = { fsLocal, toolFs: {}, toolSearch: {}, ...(policy && { fsPolicy: {} }) }
  await ctx.plugin(Stack, { ...files, ...more })
  if (!ctx.tools?.get('read'))
    throw new Error('the tool stack did not load (is every package built?)')
  return ctx
}

/** An agent-like actor for tool executions: the policy keys its state on `session`. */
export function fakeAgent(cwd, id = 'bench-session') {
  return { session: { header: { id, cwd }, scope: { id, mode: undefined, channels: {} } } }
}

const registries = new WeakMap()

/**
 * The registry behind ctx.tools as the agent host holds it: taken once, so a call does not pay
 * Cordis's lookup of the service (see `lookupCost`) on top of the registry's own work.
 */
export async function registryOf(ctx) {
  let registry = registries.get(ctx)
  if (registry === undefined) {
    const { untraced } = await import(dist('tools'))
    registry = untraced(ctx.tools)
    registries.set(ctx, registry)
  }
  return registry
}

/** Executes one tool call (ctx.tools.execute) and throws when the result is an error. */
export async function callTool(ctx, exec) {
  const registry = registries.get(ctx) ?? (await registryOf(ctx))
  const call = { callId: `call-${Math.random()}`, session: exec.agent?.session, ...exec }
  const result = await registry.execute(call)
  if (result.isError) {
    throw new Error(`${exec.name} failed: ${result.content.map((c) => c.text).join('\n')}`)
  }
  return result
}

export { dist }
