// Model choice for the `dsh-acp` bin: `--script FILE` wins (the file is read and validated
// now, so a bad file fails before any protocol frame), else DEEPSEEK_API_KEY selects the
// OpenAI-compatible model, else NoticeLlm answers with how to configure one.
// Reads the script file and the given environment; never touches stdout.
import { loadLlmScript } from '@deepseek-ai/dsh-llm'
import { DEFAULT_BASE_URL, DEFAULT_MODEL } from '@deepseek-ai/dsh-llm-openai'
import type { DshModelOptions } from './stack'

export type ModelChoice =
  { ok: true; model: DshModelOptions; description: string } | { ok: false; message: string }

export interface ModelFlags {
  script?: string
  model?: string
  baseUrl?: string
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
  const apiKey = env.DEEPSEEK_API_KEY?.trim()
  if (apiKey) {
    const model: DshModelOptions = {
      kind: 'openai',
      apiKey,
      ...(flags.baseUrl !== undefined && { baseUrl: flags.baseUrl }),
      ...(flags.model !== undefined && { model: flags.model }),
    }
    const target = `${flags.model ?? DEFAULT_MODEL} at ${flags.baseUrl ?? DEFAULT_BASE_URL}`
    return { ok: true, model, description: `OpenAI-compatible model ${target}` }
  }
  return {
    ok: true,
    model: { kind: 'unconfigured' },
    description:
      flags.model !== undefined || flags.baseUrl !== undefined
        ? 'no model configured: --model and --base-url need DEEPSEEK_API_KEY'
        : 'no model configured (set DEEPSEEK_API_KEY or pass --script FILE)',
  }
}
