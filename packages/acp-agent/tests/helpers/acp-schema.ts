// Checks frames against the ACP SDK's own JSON schema (schema/v1) with ajv, draft 2020-12:
// the agent message envelope, then the exact definition for the method — a notification's or
// request's params, or the result of the client request a response answers.
import { createRequire } from 'node:module'
import { Ajv2020 } from 'ajv/dist/2020'
import type { ValidateFunction } from 'ajv'

type SchemaDef = { 'x-side'?: string; 'x-method'?: string }
const require = createRequire(import.meta.url)
const schema = require('@agentclientprotocol/sdk/schema/v1/schema.json') as {
  $defs: Record<string, SchemaDef>
}

const ajv = new Ajv2020({ strict: false, allErrors: true })
for (const [format, min, max] of [
  ['uint16', 0, 0xffff],
  ['uint32', 0, 0xffffffff],
  ['int32', -0x80000000, 0x7fffffff],
  ['uint64', 0, Number.MAX_SAFE_INTEGER],
  ['int64', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
] as const) {
  ajv.addFormat(format, {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= min && n <= max,
  })
}
ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) })
ajv.addFormat('uri', (text: string) => URL.canParse(text))
ajv.addSchema(schema, 'acp')

function compiled(ref: string): ValidateFunction {
  const validate = ajv.getSchema(ref)
  if (!validate) throw new Error(`the ACP schema has nothing at ${ref}`)
  return validate
}

const agentEnvelope = compiled('acp#/anyOf/0')

/** The definition names for what the agent sends under `method`. */
function agentDefs(method: string, response: boolean): string[] {
  const side = response ? 'agent' : 'client'
  return Object.entries(schema.$defs)
    .filter(([, def]) => def['x-side'] === side && def['x-method'] === method)
    .filter(([name]) => name.endsWith('Response') === response)
    .map(([name]) => name)
}

/**
 * Problems of one line the agent wrote; `requestMethods` maps the ids of the client's requests
 * to their methods so a response is checked against the right result definition.
 */
export function agentLineProblems(line: string, requestMethods: Map<unknown, string>): string[] {
  let message: Record<string, unknown>
  try {
    message = JSON.parse(line) as Record<string, unknown>
  } catch {
    return ['not JSON']
  }
  const problems: string[] = []
  if (!agentEnvelope(message)) problems.push(`envelope: ${ajv.errorsText(agentEnvelope.errors)}`)
  if ('error' in message) return problems
  const isResponse = typeof message.method !== 'string'
  const method = isResponse ? requestMethods.get(message.id) : (message.method as string)
  if (method === undefined)
    return [...problems, `a response to an unknown request ${String(message.id)}`]
  const names = agentDefs(method, isResponse)
  if (names.length === 0) problems.push(`no schema definition for ${method}`)
  for (const name of names) {
    const validate = compiled(`acp#/$defs/${name}`)
    const payload = isResponse ? message.result : message.params
    if (!validate(payload)) problems.push(`${name}: ${ajv.errorsText(validate.errors)}`)
  }
  return problems
}
