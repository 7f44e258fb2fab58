// Validates what the bridge writes against the ACP SDK's own JSON schema (schema/v1), with
// ajv (draft 2020-12). Each agent frame is checked twice: against the schema's "Agent"
// message envelope, and against the exact definition for its method — the response def of
// the request it answers, the request/notification def of what it sends — because the
// envelope alone admits anything through its extension branches.
import { createRequire } from 'node:module'
import { Ajv2020 } from 'ajv/dist/2020'
import type { ValidateFunction } from 'ajv'
import type { AcpFrame } from '../../src/testing'

const require = createRequire(import.meta.url)
const schema = require('@agentclientprotocol/sdk/schema/v1/schema.json') as {
  $defs: Record<string, { 'x-side'?: string; 'x-method'?: string }>
}

const ajv = new Ajv2020({ strict: false, allErrors: true })
const integer = (min: number, max: number) => ({
  type: 'number' as const,
  validate: (n: number) => Number.isInteger(n) && n >= min && n <= max,
})
ajv.addFormat('uint16', integer(0, 0xffff))
ajv.addFormat('uint32', integer(0, 0xffffffff))
ajv.addFormat('int32', integer(-0x80000000, 0x7fffffff))
ajv.addFormat('uint64', integer(0, Number.MAX_SAFE_INTEGER))
ajv.addFormat('int64', integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER))
ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) })
ajv.addFormat('uri', (s: string) => URL.canParse(s))
ajv.addSchema(schema, 'acp')

function compiled(ref: string): ValidateFunction {
  const validate = ajv.getSchema(ref)
  if (!validate) throw new Error(`no schema at ${ref}`)
  return validate
}

const envelope = compiled('acp#/anyOf/0')
const errorDef = compiled('acp#/$defs/Error')

/** Definition names by method: what the agent sends (client-side defs) and answers. */
function defsFor(method: string, side: 'agent' | 'client', response: boolean): string[] {
  return Object.entries(schema.$defs)
    .filter(([, def]) => def['x-side'] === side && def['x-method'] === method)
    .filter(([name]) => name.endsWith('Response') === response)
    .map(([name]) => name)
}

function explain(validate: ValidateFunction): string {
  return ajv.errorsText(validate.errors, { separator: '; ' })
}

/** The problems of one agent frame against the schema; empty when it is valid. */
export function agentFrameProblems(frame: AcpFrame): string[] {
  const message = frame.message as Record<string, unknown> | undefined
  if (message === undefined) return [`not JSON: ${frame.text}`]
  const problems: string[] = []
  if (!envelope(message)) problems.push(`envelope: ${explain(envelope)}`)
  const isResponse = !('method' in message)
  if (isResponse && 'error' in message) {
    if (!errorDef(message.error)) problems.push(`error: ${explain(errorDef)}`)
    return problems
  }
  if (frame.method === undefined) {
    // A response to a request the log never saw: only the envelope applies.
    return problems
  }
  const names = isResponse
    ? defsFor(frame.method, 'agent', true)
    : defsFor(frame.method, 'client', false)
  const payload = isResponse ? message.result : message.params
  for (const name of names) {
    const validate = compiled(`acp#/$defs/${name}`)
    if (!validate(payload)) problems.push(`${name}: ${explain(validate)}`)
  }
  return problems
}

/** Throws naming every invalid frame the bridge wrote. */
export function assertAgentFramesValid(frames: readonly AcpFrame[]): void {
  const bad = frames
    .filter((frame) => frame.from === 'agent')
    .map((frame) => ({ frame, problems: agentFrameProblems(frame) }))
    .filter(({ problems }) => problems.length > 0)
  if (bad.length > 0) {
    const lines = bad.map(({ frame, problems }) => `${frame.text}\n  ${problems.join('\n  ')}`)
    throw new Error(
      `${bad.length} frame(s) the bridge sent do not match the ACP schema:\n${lines.join('\n')}`,
    )
  }
}

/** True when a method has a definition the validator checks (guards the checker itself). */
export function knowsMethod(method: string, response: boolean): boolean {
  return defsFor(method, response ? 'agent' : 'client', response).length > 0
}
