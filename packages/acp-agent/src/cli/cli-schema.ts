// The serving flags of `dsh-acp` as one schema whose keys are the app's config keys (DshApp's,
// and under them the plugins' own: `--editor-timeout` fills `fsAcp.timeoutMs`, the key fs-acp
// reads), so a flag is renamed once, here, and nowhere on its way down. Each leaf names its flag
// and turns the flag's text into the config value, or into the sentence the person reads
// (what was wrong, what it takes). Pure: no I/O, no environment.
import { z } from 'zod'
import { PERMISSION_MODES, isPermissionModeId } from '@deepseek-ai/dsh-permission'
import type { PermissionModeId } from '@deepseek-ai/dsh-permission'

/** How a flag is given: with a text value (once, or repeated), or alone. */
export interface CliFlag {
  name: string
  type: 'string' | 'boolean'
  multiple?: true
}

/** The flag behind each leaf (and behind `web.deepseek`, which a switch turns on). */
const flagOf = new WeakMap<z.ZodType, CliFlag>()

function flagged<T extends z.ZodType>(schema: T, flag: CliFlag): T {
  flagOf.set(schema, flag)
  return schema
}

/**
 * A text flag: `convert` gives the value, or a problem worded for the person; a blank value is
 * refused first unless `blank` says `convert` words that too.
 */
function textFlag<T>(
  name: string,
  convert: (text: string) => T | { problem: string },
  blank: 'refused' | 'converted' = 'refused',
) {
  const schema = z.string().transform((text, ctx) => {
    if (blank === 'refused' && text.trim() === '') {
      return invalid(ctx, `--${name} needs a non-empty value`)
    }
    const value = convert(text)
    const problem = (value as { problem?: unknown } | undefined)?.problem
    return typeof problem === 'string' ? invalid(ctx, problem) : (value as T)
  })
  return flagged(schema.optional(), { name, type: 'string' })
}

function invalid(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: 'custom', message })
  return z.NEVER
}

/** A switch: present or not (node's parser gives `true` or nothing). */
function switchFlag(name: string) {
  return flagged(z.literal(true).optional(), { name, type: 'boolean' })
}

const text = (name: string) => textFlag(name, (value) => value)

const httpUrl = (name: string, blank?: 'converted') =>
  textFlag(
    name,
    (value) =>
      isHttpUrl(value) ? value : { problem: `--${name} must be an http(s) URL, got "${value}"` },
    blank,
  )

/** Seconds in (0, 3600], as the milliseconds a plugin's config takes. */
const secondsAsMs = (name: string) =>
  textFlag(name, (value) => {
    const seconds = Number(value)
    if (Number.isFinite(seconds) && seconds > 0 && seconds <= 3600) {
      return Math.max(1, Math.round(seconds * 1000))
    }
    return { problem: `--${name} takes seconds, more than 0 and at most 3600, got "${value}"` }
  })

const tokens = (name: string) =>
  textFlag(name, (value) => {
    const count = Number(value)
    if (Number.isInteger(count) && count >= 1024 && count <= 10_000_000) return count
    return {
      problem: `--${name} takes a whole number of tokens, at least 1024, got "${value}"`,
    }
  })

const mode = (name: string) =>
  textFlag(name, (value): PermissionModeId | { problem: string } => {
    if (isPermissionModeId(value)) return value
    const ids = PERMISSION_MODES.map((known) => known.id).join(', ')
    return { problem: `--${name} must be one of ${ids}, got "${value}"` }
  })

/** `on` or `off`, as whether the thing is enabled (no empty check: `""` is neither). */
const onOff = (name: string) => {
  const schema = z.string().transform((value, ctx) => {
    if (value === 'on' || value === 'off') return value === 'on'
    return invalid(ctx, `--${name} must be on or off, got "${value}"`)
  })
  return flagged(schema.optional(), { name, type: 'string' })
}

/** Variable names, repeated for more, each taken once. */
const variableNames = (name: string) => {
  const schema = z.array(z.string()).transform((names, ctx) => {
    const bad = names.find((each) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(each))
    if (bad === undefined) return [...new Set(names)]
    return invalid(ctx, `--${name} takes a variable name (letters, digits, _), got "${bad}"`)
  })
  return flagged(schema.optional(), { name, type: 'string', multiple: true })
}

const ONE_SEARCH =
  'give one web search provider: --web-search-url or --web-search-deepseek, not both'

/** The serving flags, by the config keys they fill. */
export const CLI_SCHEMA = z.object({
  /** The scripted model's file (the bin reads it into `llm`). */
  script: text('script'),
  /** The OpenAI-compatible model: DshModelOptions' keys. */
  llm: z
    .object({
      model: text('model'),
      baseUrl: httpUrl('base-url'),
      contextWindow: tokens('context-window'),
      imageInput: switchFlag('image-input'),
    })
    .optional(),
  mode: mode('mode'),
  /** Where sessions are stored (the bin makes the store and undo's folder of it). */
  sessions: text('sessions'),
  fsAcp: z.object({ timeoutMs: secondsAsMs('editor-timeout') }).optional(),
  mcp: z.object({ callTimeoutMs: secondsAsMs('mcp-timeout') }).optional(),
  sandbox: z
    .object({ enabled: onOff('sandbox'), network: switchFlag('sandbox-network') })
    .optional(),
  passEnv: variableNames('pass-env'),
  /** DshWebOptions' keys; the bin adds DeepSeek's search key from the environment. */
  web: z
    .object({
      allowPrivate: switchFlag('web-allow-private'),
      searxngUrl: httpUrl('web-search-url', 'converted'),
      deepseek: flagged(
        z.object({ baseUrl: httpUrl('web-search-deepseek-url', 'converted') }).optional(),
        {
          name: 'web-search-deepseek',
          type: 'boolean',
        },
      ),
    })
    .refine((web) => web.searxngUrl === undefined || web.deepseek === undefined, ONE_SEARCH)
    .optional(),
})

export type CliServeOptions = z.output<typeof CLI_SCHEMA>

/** A flag of the schema, the config keys it fills, and whether it opens an object (a switch). */
export interface CliFlagPlace {
  flag: CliFlag
  path: string[]
  opens: boolean
}

/** Each flag of the schema with the path of config keys it fills, in the schema's order. */
export function cliFlags(): CliFlagPlace[] {
  const found: CliFlagPlace[] = []
  const walk = (schema: z.ZodType, path: string[]): void => {
    const flag = flagOf.get(schema)
    const inner = schema instanceof z.ZodOptional ? schema.unwrap() : schema
    if (flag !== undefined) found.push({ flag, path, opens: inner instanceof z.ZodObject })
    if (inner instanceof z.ZodObject) {
      for (const [key, child] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
        walk(child, [...path, key])
      }
    }
  }
  walk(CLI_SCHEMA, [])
  return found
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}
