// A plugin's config as Cordis gives it to `apply` or a service's constructor: already validated
// against the plugin's zod `Config` when it loaded, so it is that schema's output (defaults in).
// One typed place for that fact instead of a cast in every plugin. Cordis-free.
import type { z } from 'zod'

/** `config` as the output of `schema`, which Cordis validated it against when the plugin loaded. */
export function configOf<S extends z.ZodType>(_schema: S, config: z.input<S>): z.output<S> {
  return config as z.output<S>
}
