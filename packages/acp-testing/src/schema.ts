// Validates what the bridge writes against the ACP SDK's own JSON schema (schema/v1), with ajv
// (draft 2020-12). Each agent frame is checked twice: against the schema's agent message
// envelope, and against the exact definition for its method — the response definition of the
// request it answers, the request or notification definition of what it sends — because the
// envelope alone admits anything through its extension branches. The SDK checks nothing it
// sends, and its client drops some bad frames silently, so this is the only guard on the wire.
// A connection is checked against the schema its client negotiated: the stable one, or, for a
// client that advertised an unstable capability (subagents), `schema.unstable.json`, which
// holds the stable protocol and the unstable additions.
import { createRequire } from 'node:module'
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ValidateFunction } from 'ajv'
import type { AcpFrame } from './frames'

type SchemaDef = { 'x-side'?: string; 'x-method'?: string }
type AcpSchema = { $defs: Record<string, SchemaDef> }
const require = createRequire(import.meta.url)
const schemas = {
  acp: require('@agentclientprotocol/sdk/schema/v1/schema.json') as AcpSchema,
  'acp-unstable': require('@agentclientprotocol/sdk/schema/v1/schema.unstable.json') as AcpSchema,
}

/** Which schema a connection's frames are checked against. */
export interface AcpSchemaChoice {
  /** The client advertised an unstable capability: the unstable schema. */
  unstable?: boolean
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
for (const [key, schema] of Object.entries(schemas)) ajv.addSchema(schema, key)

function compiled(ref: string): ValidateFunction {
  const validate = ajv.getSchema(ref)
  if (!validate) throw new Error(`the ACP schema has nothing at ${ref}`)
  return validate
}

function keyOf(choice: AcpSchemaChoice | undefined): keyof typeof schemas {
  return choice?.unstable === true ? 'acp-unstable' : 'acp'
}

/**
 * Definition names for what the agent sends under `method`: a response to a client request, or
 * a request/notification to the client (`x-side: client`) or to either peer (`protocol`, such
 * as `$/cancel_request`).
 */
function agentDefs(method: string, response: boolean, key: keyof typeof schemas = 'acp'): string[] {
  const sides = response ? ['agent'] : ['client', 'protocol']
  return Object.entries(schemas[key].$defs)
    .filter(([, def]) => sides.includes(def['x-side'] ?? '') && def['x-method'] === method)
    .filter(([name]) => name.endsWith('Response') === response)
    .map(([name]) => name)
}

function explain(validate: ValidateFunction): string {
  return ajv.errorsText(validate.errors, { separator: '; ' })
}

/** The problems of one frame the agent wrote; empty when it is valid. */
export function agentFrameProblems(frame: AcpFrame, choice?: AcpSchemaChoice): string[] {
  const message = frame.message as Record<string, unknown> | undefined
  if (message === undefined) return ['not JSON']
  const key = keyOf(choice)
  const envelope = compiled(`${key}#/anyOf/0`)
  const errorDef = compiled(`${key}#/$defs/Error`)
  const problems: string[] = []
  if (!envelope(message)) problems.push(`envelope: ${explain(envelope)}`)
  const isResponse = typeof message.method !== 'string'
  if (isResponse && 'error' in message) {
    if (!errorDef(message.error)) problems.push(`error: ${explain(errorDef)}`)
    return problems
  }
  if (frame.method === undefined) {
    return [...problems, `a response to an unknown request ${JSON.stringify(message.id)}`]
  }
  const names = agentDefs(frame.method, isResponse, key)
  if (names.length === 0) problems.push(`no schema definition for ${frame.method}`)
  const payload = isResponse ? message.result : message.params
  for (const name of names) {
    const validate = compiled(`${key}#/$defs/${name}`)
    if (!validate(payload)) problems.push(`${name}: ${explain(validate)}`)
  }
  return problems
}

/**
 * Throws naming every frame the agent wrote that does not match the ACP schema the client
 * negotiated (`choice`: the stable one unless it says otherwise).
 */
export function assertAgentFramesValid(
  frames: readonly AcpFrame[],
  choice?: AcpSchemaChoice,
): void {
  const bad = frames
    .filter((frame) => frame.from === 'agent')
    .map((frame) => ({ frame, problems: agentFrameProblems(frame, choice) }))
    .filter(({ problems }) => problems.length > 0)
  if (bad.length === 0) return
  const lines = bad.map(
    ({ frame, problems }) => `${frame.text.slice(0, 500)}\n  ${problems.join('\n  ')}`,
  )
  throw new Error(
    `${bad.length} frame(s) the agent sent do not match the ACP schema:\n${lines.join('\n')}`,
  )
}

/** True when the schema defines what the agent sends under `method` (guards the checker). */
export function knowsMethod(method: string, response: boolean, choice?: AcpSchemaChoice): boolean {
  return agentDefs(method, response, keyOf(choice)).length > 0
}
