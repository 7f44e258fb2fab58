// One zod issue in words a model can act on: `limit: must be a positive integer, got 0`.
// Cordis-free helpers for `arguments.ts`; they read the issue, the value the model sent and,
// for numbers, whether the field is an integer. Unknown issue shapes fall back to zod's text.
import type { z } from 'zod'

type Issue = z.core.$ZodIssue
type PathKey = PropertyKey

/** `a.b[0]`, or `arguments` for the whole object. */
export function formatPath(path: readonly PathKey[]): string {
  if (path.length === 0) return 'arguments'
  let text = ''
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`
    else text += text === '' ? String(key) : `.${String(key)}`
  }
  return text
}

/** `a string`, `an integer`, `a boolean (true)`, `null`, `an array`, `nothing`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'string':
      return 'a string'
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a number'
    case 'boolean':
      return `a boolean (${value})`
    case 'object':
      return 'an object'
    default:
      return `a ${typeof value}`
  }
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean (true or false)',
  object: 'an object',
  array: 'an array',
  null: 'null',
  bigint: 'an integer',
  date: 'a date',
  nan: 'NaN',
}

function expectedText(expected: string): string {
  return EXPECTED[expected] ?? `a ${expected}`
}

function valueAt(root: unknown, path: readonly PathKey[]): unknown {
  let value = root
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

function shown(value: unknown): string {
  const text = JSON.stringify(value)
  if (text === undefined) return String(value)
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

const WRAPPERS = new Set([
  'optional',
  'default',
  'prefault',
  'nullable',
  'readonly',
  'nonoptional',
  'catch',
])

/** The schema of the field at `path` (through optional/default/array wrappers), if found. */
function schemaAt(root: z.core.$ZodType, path: readonly PathKey[]): z.core.$ZodType | undefined {
  let schema: z.core.$ZodType | undefined = unwrap(root)
  for (const key of path) {
    if (schema === undefined) return undefined
    const def = schema._zod.def as unknown as Record<string, unknown>
    let next: unknown
    if (def.type === 'object') next = (def.shape as Record<PropertyKey, unknown>)[key]
    else if (def.type === 'array') next = def.element
    schema = next === undefined ? undefined : unwrap(next as z.core.$ZodType)
  }
  return schema
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema
  for (;;) {
    const def = current._zod.def as unknown as Record<string, unknown>
    if (typeof def.type === 'string' && WRAPPERS.has(def.type) && def.innerType) {
      current = def.innerType as z.core.$ZodType
    } else if (def.type === 'pipe' && def.in) {
      current = def.in as z.core.$ZodType
    } else {
      return current
    }
  }
}

function isIntegerField(root: z.core.$ZodType, path: readonly PathKey[]): boolean {
  const schema = schemaAt(root, path)
  if (schema === undefined) return false
  const isIntFormat = (def: unknown) => {
    const format = (def as { format?: unknown }).format
    return typeof format === 'string' && format.includes('int')
  }
  const def = schema._zod.def
  return isIntFormat(def) || (def.checks ?? []).some((check) => isIntFormat(check._zod.def))
}

function describeBound(issue: Issue & { code: 'too_small' | 'too_big' }, isInt: boolean): string {
  const small = issue.code === 'too_small'
  const bound = Number(small ? issue.minimum : issue.maximum)
  const inclusive = issue.inclusive !== false
  switch (issue.origin) {
    case 'string':
      if (issue.exact) return `must be exactly ${bound} characters long`
      if (small && bound === 1) return 'must not be empty'
      return `must be at ${small ? 'least' : 'most'} ${bound} characters long`
    case 'array':
    case 'set':
      if (issue.exact) return `must have exactly ${bound} items`
      if (small && bound === 1) return 'must not be empty'
      return `must have at ${small ? 'least' : 'most'} ${bound} items`
    default: {
      const noun = isInt ? 'integer' : 'number'
      if (small && ((bound === 0 && !inclusive) || (isInt && bound === 1 && inclusive))) {
        return `must be a positive ${noun}`
      }
      if (small && bound === 0 && inclusive) return `must be a non-negative ${noun}`
      if (small) return inclusive ? `must be at least ${bound}` : `must be greater than ${bound}`
      return inclusive ? `must be at most ${bound}` : `must be less than ${bound}`
    }
  }
}

/** `path: what was wrong`, using the sent value for `got …`. */
export function describeIssue(issue: Issue, root: unknown, input: z.core.$ZodType): string {
  const where = formatPath(issue.path)
  const value = valueAt(root, issue.path)
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined && issue.path.length > 0) {
        return `${where}: missing required field (expected ${expectedText(issue.expected)})`
      }
      return `${where}: expected ${expectedText(issue.expected)}, got ${describeValue(value)}`
    case 'too_small':
    case 'too_big': {
      const text = describeBound(issue, isIntegerField(input, issue.path))
      let got = ''
      if (typeof value === 'number') got = `, got ${value}`
      else if (typeof value === 'string' && value !== '') got = `, got ${value.length} characters`
      return `${where}: ${text}${got}`
    }
    case 'invalid_value': {
      const options = issue.values.map((option) => shown(option))
      const wanted = options.length === 1 ? options[0] : `one of ${options.join(', ')}`
      return `${where}: expected ${wanted}, got ${shown(value)}`
    }
    case 'invalid_format':
      if (issue.format === 'regex' && issue.pattern) {
        return `${where}: must match the pattern ${issue.pattern}`
      }
      return `${where}: must be a valid ${issue.format}`
    case 'not_multiple_of':
      return `${where}: must be a multiple of ${issue.divisor}, got ${shown(value)}`
    case 'unrecognized_keys':
      return issue.keys
        .map((key) => `${formatPath([...issue.path, key])}: unknown field`)
        .join('; ')
    case 'invalid_union': {
      const expected = issue.errors.map((branch) =>
        branch.length === 1 && branch[0]?.code === 'invalid_type' && branch[0].path.length === 0
          ? expectedText(branch[0].expected)
          : undefined,
      )
      if (expected.length > 0 && expected.every((text) => text !== undefined)) {
        return `${where}: expected ${expected.join(' or ')}, got ${describeValue(value)}`
      }
      return `${where}: does not match any of the allowed forms`
    }
    default:
      return `${where}: ${issue.message}`
  }
}

/** A declared name close to `name` (same letters ignoring case and `_`/`-`, or 2 edits away). */
export function suggestName(name: string, names: readonly string[]): string | undefined {
  const squash = (text: string) => text.toLowerCase().replace(/[_-]/g, '')
  const exact = names.find((candidate) => squash(candidate) === squash(name))
  if (exact !== undefined) return exact
  let best: string | undefined
  let bestDistance = 3
  for (const candidate of names) {
    const distance = editDistance(name, candidate)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      )
    }
    previous = current
  }
  return previous[b.length] ?? 0
}
