// The session's config options, pure: one `model` select (category `model`) listing the models
// the server offers with the session's current one, and the check of a
// `session/set_config_option` request against it — an unknown option or value is -32602,
// naming the valid ones.
import type { SessionConfigOption, SessionUpdate } from '@agentclientprotocol/sdk'
import { invalidParams } from './from-acp'

export const MODEL_OPTION_ID = 'model'

/** The options of a session whose model is `current`, among `models`. */
export function toAcpConfigOptions(
  models: readonly string[],
  current: string,
): SessionConfigOption[] {
  const values = models.includes(current) ? models : [current, ...models]
  return [
    {
      id: MODEL_OPTION_ID,
      name: 'Model',
      description: "The model that answers; the session's context window follows it",
      category: 'model',
      type: 'select',
      currentValue: current,
      options: values.map((value) => ({ value, name: value })),
    },
  ]
}

export function toAcpConfigOptionUpdate(models: readonly string[], current: string): SessionUpdate {
  return {
    sessionUpdate: 'config_option_update',
    configOptions: toAcpConfigOptions(models, current),
  }
}

/** The model a `session/set_config_option` request picks, or the -32602 error saying why not. */
export function pickModel(
  params: { configId: string; value?: unknown; type?: unknown },
  models: readonly string[],
): string {
  if (params.configId !== MODEL_OPTION_ID) {
    throw invalidParams(
      `Unknown config option "${params.configId}": the options are: ${MODEL_OPTION_ID}.`,
      {
        configId: params.configId,
        availableOptions: [MODEL_OPTION_ID],
      },
    )
  }
  const { value } = params
  if (typeof value !== 'string' || !models.includes(value)) {
    const shown = typeof value === 'string' ? `"${value}"` : JSON.stringify(value)
    throw invalidParams(`Unknown model ${shown}: the models are: ${models.join(', ')}.`, {
      configId: MODEL_OPTION_ID,
      value,
      availableValues: [...models],
    })
  }
  return value
}
