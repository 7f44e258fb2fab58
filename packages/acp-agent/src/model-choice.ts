// Model choice for the `dsh-acp` bin: `--script FILE` wins (the file is read and validated
// now, so a bad file fails before any protocol frame), else a key (DSH_API_KEY,
// DEEPSEEK_API_KEY, OPENAI_API_KEY) or `--base-url` selects the OpenAI-compatible model (with
// no key, a keyless local server), else NoticeLlm answers with how to configure one. The
// person's models file (`$XDG_CONFIG_HOME/dsh/models.json`) joins the OpenAI-compatible model.
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

export async function chooseModel(
  flags: ModelFlags,
  env: Record<string, string | undefined>,
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
  if (apiKey !== undefined || flags.baseUrl !== undefined) {
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
    const keyed = apiKey === undefined ? ', no API key' : ''
    return { ok: true, model, description: `OpenAI-compatible model ${target}${keyed}` }
  }
  return {
    ok: true,
    model: { kind: 'unconfigured' },
    description:
      flags.model !== undefined
        ? 'no model configured: --model needs an API key (DSH_API_KEY, DEEPSEEK_API_KEY or OPENAI_API_KEY) or --base-url'
        : 'no model configured (set DEEPSEEK_API_KEY, pass --base-url URL or --script FILE)',
  }
}
