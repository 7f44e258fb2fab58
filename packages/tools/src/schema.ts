// What the model sees of a tool: name, description and the JSON Schema of its input.
// `z.toJSONSchema(input, { io: 'input' })` so fields with defaults stay optional; the
// `$schema` key zod adds is dropped (providers' function-calling APIs want a bare object
// schema, and the key is optional in JSON Schema). When the registry refuses unknown fields
// (see arguments.ts), the schema says so with `additionalProperties: false`. Throws for an
// input JSON Schema cannot express (a transform, a date); the registry reports that at register.
// A definition's own `parameters` (a JSON Schema from elsewhere) is taken as given, minus `$schema`.
import { z } from 'zod'
import { refusesUnknownKeys } from './arguments'
import type { ToolDefinition, ToolSchema } from './types'

export function toolSchema(def: ToolDefinition): ToolSchema {
  const images = def.returnsImages === true ? { returnsImages: true } : {}
  if (def.parameters !== undefined) {
    const { $schema: _given, ...parameters } = def.parameters
    return { name: def.name, description: def.description, parameters, ...images }
  }
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(def.input, {
    io: 'input',
  }) as Record<string, unknown>
  if (refusesUnknownKeys(def.input) && parameters.additionalProperties === undefined) {
    parameters.additionalProperties = false
  }
  return { name: def.name, description: def.description, parameters, ...images }
}
