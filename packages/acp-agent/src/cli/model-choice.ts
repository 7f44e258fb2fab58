// Model choice for the `dsh-acp` bin: `--script FILE` wins (the file is read and validated
// now, so a bad file fails before any protocol frame), else the OpenAI-compatible model at
// `--base-url` (default DeepSeek's), its key from the environment (DSH_API_KEY,
// DEEPSEEK_API_KEY, OPENAI_API_KEY), else the one stored by `dsh-acp --login`, asked again
// before each request (../auth/api-key); with none, a local server goes keyless and DeepSeek's
// opens no session until the person logs in (../auth/app-auth). The person's models file
// (`$XDG_CONFIG_HOME/dsh/models.json`) joins the OpenAI-compatible model.
// Reads the script file, the models file and the given environment; never touches stdout.
import { loadLlmScript } from '@deepseek-ai/dsh-llm'
import {
  DEFAULT_BASE_URL,
  DEFAULT_MODEL,
  apiKeyFromEnv,
  currentModelName,
  defaultModelsFile,
  readModelsFile,
} from '@deepseek-ai/dsh-llm-openai'
import type { DshModelOptions } from '@deepseek-ai/dsh-stack'
import type { ApiKeySource } from '../auth/api-key'

export type ModelChoice =
  { ok: true; model: DshModelOptions; description: string } | { ok: false; message: string }

export interface ModelFlags {
  script?: string
  model?: string
  baseUrl?: string
  contextWindow?: number
  /** The given model takes images. */
  imageInput?: boolean
}

/** `keys`: where a key not in the environment comes from (the stored one); none: only `env`. */
export async function chooseModel(
  flags: ModelFlags,
  env: Record<string, string | undefined>,
  keys?: ApiKeySource,
): Promise<ModelChoice> {
  if (flags.script !== undefined) {
    try {
      const script = await loadLlmScript(flags.script)
      return {
        ok: true,
        model: { kind: 'scripted', script },
        description: `scripted model from ${flags.script} (${script.turns.length} turns)`,
      }
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) }
    }
  }
  const apiKey = apiKeyFromEnv(env)
  // The person's corrections to what dsh knows of models: a bad file stops the start here.
  let models
  try {
    models = await readModelsFile(defaultModelsFile(env))
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
  const model: DshModelOptions = {
    kind: 'openai',
    ...(apiKey !== undefined && { apiKey }),
    // No key in the environment: the one stored by `dsh-acp --login`, as `keys` last read it.
    ...(apiKey === undefined && keys !== undefined && { resolveApiKey: () => keys.current() }),
    ...(models !== undefined && { models }),
    ...(flags.baseUrl !== undefined && { baseUrl: flags.baseUrl }),
    ...(flags.model !== undefined && { model: flags.model }),
    ...(flags.contextWindow !== undefined && { contextWindow: flags.contextWindow }),
    ...(flags.imageInput === true && { imageInput: true }),
  }
  // A retired name (deepseek-chat) is sent as its successor; the session tells the person.
  const named = flags.model ?? DEFAULT_MODEL
  const sent = currentModelName(named)
  const shown = sent === named ? named : `${sent} (for the retired ${named})`
  const target = `${shown} at ${flags.baseUrl ?? DEFAULT_BASE_URL}`
  const origin = apiKey !== undefined ? 'environment' : keys?.origin()
  const keyed =
    origin === 'environment'
      ? ''
      : origin === 'stored'
        ? ', the key stored by --login'
        : ', no API key'
  return { ok: true, model, description: `OpenAI-compatible model ${target}${keyed}` }
}
