// The agents service's config: the step limit, when a session is compacted and what survives
// it, and where sessions are stored. Validated by Cordis when the plugin loads.
import { z } from 'zod'
import type { ContextPolicy } from './context/context'
import type { SessionStore } from './sessions/store'

export const Config = z
  .object({
    /** Model requests allowed in one turn before it ends with `max-steps`. */
    maxSteps: z.number().int().positive().default(50),
    /** When a session's context is compacted, and what survives it (see the README). */
    compaction: z
      .object({
        /** The share of the model's window a request may fill before it is compacted. */
        threshold: z.number().gt(0.1).max(0.95).default(0.8),
        /** Model steps (a response and the results of its calls) kept whole. */
        keepRecentSteps: z.number().int().min(1).max(20).default(3),
        /** Tools whose outputs are never elided (state that must survive compaction). */
        keepTools: z.array(z.string().min(1)).default([]),
      })
      .prefault({}),
    /** Where sessions are stored as they happen, to be loaded again; none: memory only. */
    store: z
      .custom<SessionStore>(
        (value) => typeof value === 'object' && value !== null && 'create' in value,
        'store must be a SessionStore (create, open, list, delete)',
      )
      .optional(),
  })
  .prefault({})

/** The config as given: every field optional. */
export type AgentsConfig = z.input<typeof Config>

/** The compaction policy the config gives every session. */
export function policyOf(compaction: z.output<typeof Config>['compaction']): ContextPolicy {
  const keepTools = new Set(compaction.keepTools)
  return {
    threshold: compaction.threshold,
    keepRecentSteps: compaction.keepRecentSteps,
    keep: (call) => keepTools.has(call.name),
  }
}
