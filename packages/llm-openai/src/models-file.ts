// The person's models file: facts about models that a person can correct without a release
// (a renamed model's window, its prices at both rates, whether it reads images, how it is told
// to think). A JSON file, `$XDG_CONFIG_HOME/dsh/models.json` (else `~/.config/dsh/models.json`),
// validated whole: a bad entry is named with what is wrong, and nothing of the file is used.
// The file's entries override the built-in table field by field (./models).
import { readFile, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import type { ModelFacts } from './models'

const perMillion = z.number().nonnegative()
const Rates = z.strictObject({
  inputPerMillion: perMillion,
  cachedInputPerMillion: perMillion,
  outputPerMillion: perMillion,
})
const clock = z
  .string()
  .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'a time HH:MM, 00:00 to 24:00')
const PeakWindow = z
  .strictObject({
    days: z.array(z.number().int().min(0).max(6)).min(1),
    from: clock,
    to: clock,
  })
  .refine((window) => window.from < window.to, 'from must come before to')

/** A model's prices: the peak rates, and off-peak rates with the peak windows when by the clock. */
export const PricesSchema = Rates.extend({
  currency: z.string().min(1),
  offPeak: Rates.optional(),
  peak: z.array(PeakWindow).min(1).optional(),
}).refine(
  (prices) => (prices.offPeak === undefined) === (prices.peak === undefined),
  'offPeak and peak go together: the peak windows say when the off-peak rates do not apply',
)

/** One model's facts, every field optional. */
export const ModelFactsSchema = z
  .strictObject({
    contextWindow: z.number().int().min(1024),
    maxOutputTokens: z.number().int().positive(),
    prices: PricesSchema,
    imageInput: z.boolean(),
    thinking: z.enum(['deepseek', 'effort', 'none']),
  })
  .partial()

const ModelsFile = z.strictObject({ models: z.record(z.string().min(1), ModelFactsSchema) })

/** Where the models file is looked for. */
export function defaultModelsFile(env: Record<string, string | undefined>): string {
  const config = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config')
  return join(config, 'dsh', 'models.json')
}

/**
 * The facts of a models file's content (already read), by model id; throws an Error naming
 * the file, the entry and what is wrong.
 */
export function parseModelsFile(text: string, path: string): Record<string, ModelFacts> {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    throw new Error(`the models file ${path} is not JSON (${why}); fix it or remove it`, {
      cause: error,
    })
  }
  const parsed = ModelsFile.safeParse(json)
  if (parsed.success) return parsed.data.models
  const issue = parsed.error.issues[0]!
  throw new Error(
    `the models file ${path} has a bad entry at ${pathOf(issue.path)}: ${issue.message}; fix it (see dsh-acp --help) or remove it`,
  )
}

/**
 * The models file's facts; undefined when there is no file. Throws on anything else that is
 * not a readable regular file of valid entries.
 */
export async function readModelsFile(
  path: string,
): Promise<Record<string, ModelFacts> | undefined> {
  const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw new Error(`the models file ${path} cannot be read: ${error.message}`)
  })
  if (found === undefined) return undefined
  if (!found.isFile()) throw new Error(`the models file ${path} is not a regular file`)
  return parseModelsFile(await readFile(path, 'utf8'), path)
}

/** `models["deepseek-flash"].prices.inputPerMillion`, from zod's issue path. */
function pathOf(path: readonly PropertyKey[]): string {
  let text = ''
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`
    else if (typeof key === 'string' && /^[A-Za-z_]\w*$/.test(key)) text += text ? `.${key}` : key
    else text += `[${JSON.stringify(String(key))}]`
  }
  return text || 'the top level'
}
