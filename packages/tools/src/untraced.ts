// Services and the event bus without Cordis's tracing proxy, for the paths a tool call takes.
// Through `ctx.<service>` a plugin gets a proxy that builds a context per method access, so
// the method can attribute what it does to the caller (`this.ctx.effect` in it belongs to the
// caller's plugin): several microseconds each time. A plugin whose calls need no attribution
// takes the object once, when it is applied. That capture never outlives its service: Cordis
// applies a plugin again when a service it injects is replaced.
import { symbols } from 'cordis'
import type { Context, Events } from 'cordis'

/** The object behind a service's proxy (the value itself when it is not one). */
export function untraced<T extends object>(service: T): T {
  const original = (service as Record<symbol, unknown>)[symbols.original]
  return (original as T | undefined) ?? service
}

/** `emit` and `waterfall` of the app's events, as `ctx` offers them, without the proxy. */
export interface EventBus {
  emit<K extends keyof Events>(name: K, ...args: Parameters<Events[K]>): void
  waterfall<K extends keyof Events>(name: K, ...args: Parameters<Events[K]>): ReturnType<Events[K]>
}

/** The app's events for `ctx`: listeners of every plugin, called as `ctx.emit` calls them. */
export function eventBusOf(ctx: Context): EventBus {
  return untraced(ctx.events) as EventBus
}
