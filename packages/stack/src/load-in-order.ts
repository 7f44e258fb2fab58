// Loading plugins one after another, each once the one before is active, with an error that
// names a plugin that did not come up. Cordis-typed, no plugin of its own.
import type { Fiber } from 'cordis'

/** A plugin to load: its label (for the error when it does not start) and the load itself. */
export type PluginStep = readonly [label: string, load: () => Fiber & PromiseLike<Fiber>]

// Cordis' FiberState is a const enum that cannot be imported under isolatedModules.
const FIBER_ACTIVE = 2

/**
 * Loads each plugin after the one before is active. A plugin whose injected service is missing
 * resolves at once while still pending, so each fiber's state is checked: the error names the
 * plugin that did not come up instead of leaving a stack that silently lacks it.
 */
export async function loadInOrder(steps: readonly PluginStep[]): Promise<void> {
  for (const [label, load] of steps) {
    const fiber = await load()
    if (fiber.state !== FIBER_ACTIVE) {
      throw new Error(`the ${label} plugin did not start (state ${fiber.state})`)
    }
  }
}
