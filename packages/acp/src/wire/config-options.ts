// The session's config options, pure: `mode` (category `mode`: the modes, the current one),
// `model` (category `model`: the models the server offers with the session's current one) and,
// where the model thinks at more than one level, `thought_level` (category `thought_level`).
// A client that draws config options draws only these, so each answer carries the whole list.
// And the check of a `session/set_config_option` request against them: an unknown option or
// value is -32602, naming the valid ones.
import type { SessionConfigOption, SessionMode } from '@agentclientprotocol/sdk'
import { invalidParams } from './from-acp'

export const MODE_OPTION_ID = 'mode'
export const MODEL_OPTION_ID = 'model'
export const THOUGHT_OPTION_ID = 'thought_level'

/** The levels a model thinks at (ctx.llm's `thoughtLevels`). */
export interface AcpThoughtLevels {
  levels: string[]
  default: string
  descriptions: Record<string, string>
}

/** What a session's options are drawn from. */
export interface AcpOptionState {
  modes: readonly SessionMode[]
  /** The session's mode; undefined when no modes are offered. */
  mode: string | undefined
  models: readonly string[]
  model: string
  /** The current model's levels, when it has several. */
  thought?: AcpThoughtLevels
  /** The session's level; absent (or not one of the model's): the model's default. */
  thoughtLevel?: string
}

function modeOption(state: AcpOptionState): SessionConfigOption[] {
  if (state.mode === undefined || state.modes.length === 0) return []
  return [
    {
      id: MODE_OPTION_ID,
      name: 'Mode',
      description: 'What the agent may do without asking',
      category: 'mode',
      type: 'select',
      currentValue: state.mode,
      options: state.modes.map((mode) => ({
        value: mode.id,
        name: mode.name,
        ...(mode.description != null && { description: mode.description }),
      })),
    },
  ]
}

function modelOption(state: AcpOptionState): SessionConfigOption {
  const { models, model } = state
  const values = models.includes(model) ? models : [model, ...models]
  return {
    id: MODEL_OPTION_ID,
    name: 'Model',
    description: "The model that answers; the session's context window follows it",
    category: 'model',
    type: 'select',
    currentValue: model,
    options: values.map((value) => ({ value, name: value })),
  }
}

/** The level in force: the session's when the model offers it, else the model's default. */
export function currentThoughtLevel(state: AcpOptionState): string | undefined {
  const { thought, thoughtLevel } = state
  if (thought === undefined) return undefined
  return thoughtLevel !== undefined && thought.levels.includes(thoughtLevel)
    ? thoughtLevel
    : thought.default
}

function thoughtOption(state: AcpOptionState): SessionConfigOption[] {
  const current = currentThoughtLevel(state)
  const { thought } = state
  if (thought === undefined || current === undefined || thought.levels.length < 2) return []
  return [
    {
      id: THOUGHT_OPTION_ID,
      name: 'Thinking',
      description: 'How hard the model thinks before it answers',
      category: 'thought_level',
      type: 'select',
      currentValue: current,
      options: thought.levels.map((value) => ({
        value,
        name: value,
        ...(thought.descriptions[value] !== undefined && {
          description: thought.descriptions[value],
        }),
      })),
    },
  ]
}

/** Every option of a session, in the order a client draws them. */
export function toAcpConfigOptions(state: AcpOptionState): SessionConfigOption[] {
  return [...modeOption(state), modelOption(state), ...thoughtOption(state)]
}

/** A `session/set_config_option` request's choice, checked against the session's options. */
export type AcpOptionChoice =
  | { option: 'mode'; value: string }
  | { option: 'model'; value: string }
  | { option: 'thought_level'; value: string }

function checkValue(configId: string, value: unknown, valid: readonly string[], what: string) {
  if (typeof value === 'string' && valid.includes(value)) return value
  const shown = typeof value === 'string' ? `"${value}"` : JSON.stringify(value)
  throw invalidParams(`Unknown ${what} ${shown}: the ${what}s are: ${valid.join(', ')}.`, {
    configId,
    value,
    availableValues: [...valid],
  })
}

/** The choice a `session/set_config_option` request makes, or the -32602 error saying why not. */
export function pickOption(
  params: { configId: string; value?: unknown },
  state: AcpOptionState,
): AcpOptionChoice {
  const ids = toAcpConfigOptions(state).map((option) => option.id)
  const { configId, value } = params
  if (configId === MODE_OPTION_ID && ids.includes(MODE_OPTION_ID)) {
    const modes = state.modes.map((mode) => mode.id)
    return { option: 'mode', value: checkValue(configId, value, modes, 'mode') }
  }
  if (configId === MODEL_OPTION_ID) {
    return { option: 'model', value: checkValue(configId, value, state.models, 'model') }
  }
  if (configId === THOUGHT_OPTION_ID && ids.includes(THOUGHT_OPTION_ID)) {
    const levels = state.thought?.levels ?? []
    return { option: 'thought_level', value: checkValue(configId, value, levels, 'level') }
  }
  throw invalidParams(`Unknown config option "${configId}": the options are: ${ids.join(', ')}.`, {
    configId,
    availableOptions: ids,
  })
}
