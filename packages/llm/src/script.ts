// The scripted model's script format: parse and validate a value (or a JSON file) into an
// `LlmScript`, refusing a malformed one with an `LLM_SCRIPT_INVALID` error naming the bad entry
// (`turns[2].toolCalls[0].arguments must be an object`). Pure apart from `loadLlmScript`'s
// file read; it does not play scripts (see scripted.ts).
import { readFile } from 'node:fs/promises'
import { LlmError } from './errors'
import type { LlmScript, LlmScriptToolCall, LlmScriptTurn } from './types'

type Json = Record<string, unknown>

const TOP_KEYS = ['turns']
const TURN_KEYS = ['text', 'reasoning', 'toolCalls']
const CALL_KEYS = ['id', 'name', 'arguments']

/** A problem at one entry; `parseLlmScript` turns it into an `LLM_SCRIPT_INVALID` error. */
class ScriptProblem {
  constructor(
    readonly path: string,
    readonly message: string,
  ) {}
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function checkKeys(value: Json, allowed: string[], path: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      const where = path === '' ? key : `${path}.${key}`
      throw new ScriptProblem(where, `${where} is not a known key (expected ${allowed.join(', ')})`)
    }
  }
}

function optionalString(value: Json, key: string, path: string): string | undefined {
  const field = value[key]
  if (field === undefined) return undefined
  if (typeof field !== 'string') {
    throw new ScriptProblem(`${path}.${key}`, `${path}.${key} must be a string`)
  }
  return field
}

function parseToolCall(value: unknown, path: string, ids: Map<string, string>): LlmScriptToolCall {
  if (!isObject(value)) throw new ScriptProblem(path, `${path} must be an object`)
  checkKeys(value, CALL_KEYS, path)
  const { id, name, arguments: args } = value
  if (typeof name !== 'string' || name === '') {
    throw new ScriptProblem(`${path}.name`, `${path}.name must be a non-empty string`)
  }
  if (!isObject(args)) {
    throw new ScriptProblem(`${path}.arguments`, `${path}.arguments must be an object`)
  }
  const call: LlmScriptToolCall = { name, arguments: args }
  if (id !== undefined) {
    if (typeof id !== 'string' || id === '') {
      throw new ScriptProblem(`${path}.id`, `${path}.id must be a non-empty string`)
    }
    const first = ids.get(id)
    if (first !== undefined) {
      throw new ScriptProblem(`${path}.id`, `${path}.id "${id}" is already used by ${first}`)
    }
    ids.set(id, path)
    call.id = id
  }
  return call
}

function parseTurn(value: unknown, path: string): LlmScriptTurn {
  if (!isObject(value)) throw new ScriptProblem(path, `${path} must be an object`)
  checkKeys(value, TURN_KEYS, path)
  const turn: LlmScriptTurn = {}
  const text = optionalString(value, 'text', path)
  const reasoning = optionalString(value, 'reasoning', path)
  if (text !== undefined) turn.text = text
  if (reasoning !== undefined) turn.reasoning = reasoning
  if (value.toolCalls !== undefined) {
    const calls = value.toolCalls
    if (!Array.isArray(calls)) {
      throw new ScriptProblem(`${path}.toolCalls`, `${path}.toolCalls must be an array`)
    }
    if (calls.length === 0) {
      throw new ScriptProblem(`${path}.toolCalls`, `${path}.toolCalls must not be empty`)
    }
    const ids = new Map<string, string>()
    turn.toolCalls = calls.map((call, index) =>
      parseToolCall(call, `${path}.toolCalls[${index}]`, ids),
    )
  }
  if (turn.text === undefined && turn.reasoning === undefined && turn.toolCalls === undefined) {
    throw new ScriptProblem(path, `${path} needs at least one of text, reasoning, toolCalls`)
  }
  return turn
}

function parseScript(value: unknown): LlmScript {
  if (!isObject(value)) {
    throw new ScriptProblem('', 'the script must be an object with a "turns" array')
  }
  checkKeys(value, TOP_KEYS, '')
  if (!Array.isArray(value.turns)) throw new ScriptProblem('turns', 'turns must be an array')
  return { turns: value.turns.map((turn, index) => parseTurn(turn, `turns[${index}]`)) }
}

/**
 * Validates a script value and returns a normalised copy (known keys only). Throws
 * `LLM_SCRIPT_INVALID` with `path` set to the bad entry and `file` when given.
 */
export function parseLlmScript(value: unknown, file?: string): LlmScript {
  try {
    return parseScript(value)
  } catch (error) {
    if (!(error instanceof ScriptProblem)) throw error
    const where = file === undefined ? '' : ` ${file}`
    throw new LlmError('LLM_SCRIPT_INVALID', `invalid model script${where}: ${error.message}`, {
      path: error.path === '' ? undefined : error.path,
      file,
    })
  }
}

/** Reads, parses and validates a JSON script file; every failure names the file. */
export async function loadLlmScript(file: string): Promise<LlmScript> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const reason = code === 'ENOENT' ? 'no such file' : (error as Error).message
    throw scriptError(`cannot read model script ${file}: ${reason}`, file, error)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const reason = (error as Error).message
    throw scriptError(`model script ${file} is not valid JSON: ${reason}`, file, error)
  }
  return parseLlmScript(value, file)
}

function scriptError(message: string, file: string, cause: unknown): LlmError {
  return new LlmError('LLM_SCRIPT_INVALID', message, { file, cause })
}
