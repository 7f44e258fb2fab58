// Services and the event bus without Cordis's tracing proxy, for the paths every tool call
// takes. Through `ctx.<service>` a plugin gets a proxy that builds a context per method access,
// so the method can attribute what it does to the caller (`this.ctx.effect` in it belongs to
// the caller's plugin): measured here, 90–140 µs a call on a loaded 2-core VM against well under
// 1 µs direct, and about 10 µs each, more than ten a call, in the small read's profile
// (bench/RESULTS.md), whose whole call is a few hundred µs. So it stays only on that path:
// - the registry's own methods a call runs (execute, preview, access, presentCall,
//   presentResult) and its event bus (`eventBusOf`);
// - the services a call reaches: tool-fs's `ctx.fs` and events, the permission layer's tools,
//   fs and events, the agent loop's llm, tools and system prompt (per step), knowledge's look
//   at each finished call;
// - where the capture decides which plugin owns what a method creates (`this.ctx.effect` in it
//   is the service's own, not the caller's), kept as it is: mcp's session tools and prompt
//   sections, tool-task's delegate sessions (`ctx.agents.create`), knowledge's opening of a
//   session (its catalog's prompt sections). Knowledge's skill lookups and the captures of
//   tool-image and tool-skill still take it; none of them is on a measured path.
// Elsewhere (a model list, a prompt's assembly, a job listing, a command's or a diagnostics
// call's provider: once a session, request or call, beside milliseconds of work) the proxy is
// used as Cordis gives it. A plugin takes the object once, when it is applied; that capture
// never outlives its service: Cordis applies a plugin again when a service it injects is
// replaced.
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
