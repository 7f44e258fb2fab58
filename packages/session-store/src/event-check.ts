// Whether a parsed log line is an event this store writes: a known `type` with the fields the
// agent host and the bridge read of it, of the right kinds. A line of another type (a newer
// dsh's event, a hand edit) or with a field missing would otherwise surface much later as an
// internal failure of whoever reads it ("… is not iterable"); here it makes the log
// unreadable, naming the line and what is wrong. Shallow on purpose: nested presentations are
// the tools' own shapes and pass as objects. Pure.
import type { StoredSessionEvent } from '@deepseek-ai/dsh-agent'

type FieldKind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'any'

/** A field's kind; a `?` after it: the field may be absent. */
type Fields = Record<string, `${FieldKind}` | `${FieldKind}?`>

const TURN = { turnId: 'string' } as const
const CALL = { turnId: 'string', callId: 'string' } as const

/** Every type a store writes, with its fields. */
const EVENT_FIELDS: Record<StoredSessionEvent['type'], Fields> = {
  'turn/start': TURN,
  'user/message': { ...TURN, text: 'string', images: 'array?' },
  'assistant/chunk': { ...TURN, kind: 'string', text: 'string' },
  'tool/call': { ...CALL, name: 'string', arguments: 'any', presentation: 'object?' },
  'tool/asked': { ...CALL, preview: 'array' },
  'tool/started': CALL,
  'tool/result': {
    ...CALL,
    name: 'string',
    content: 'array',
    isError: 'boolean',
    error: 'object?',
    presentation: 'object?',
  },
  'turn/end': { ...TURN, reason: 'string', error: 'string?' },
  'session/note': { ...TURN, text: 'string' },
  'session/mode': { mode: 'string' },
  'session/model': { model: 'string' },
  'session/thought-level': { level: 'string' },
  'context/note': { ...TURN, source: 'string', text: 'string', display: 'string?', data: 'any?' },
  'context/usage': { ...TURN, used: 'number', size: 'number', cost: 'object?' },
  'context/compacting': { ...TURN, compactionId: 'string', trigger: 'string' },
  'context/compacted': {
    ...TURN,
    compactionId: 'string',
    trigger: 'string',
    replaced: 'array',
    elided: 'number',
    summary: 'object?',
    summaryError: 'string?',
    before: 'number',
    after: 'number',
  },
}

/** The values some string fields take. */
const ONE_OF: Record<string, readonly string[]> = {
  kind: ['text', 'reasoning'],
  reason: ['completed', 'cancelled', 'max-steps', 'error'],
  trigger: ['auto', 'command', 'refused'],
}

/** What is wrong with `value` as a stored event; undefined when it is one. */
export function storedEventProblem(value: unknown): string | undefined {
  if (!isObject(value) || typeof value.type !== 'string') {
    return 'it is not an event (an object with a string "type")'
  }
  const type = value.type
  const fields = Object.hasOwn(EVENT_FIELDS, type)
    ? EVENT_FIELDS[type as StoredSessionEvent['type']]
    : undefined
  if (fields === undefined) return `its event type "${type}" is not one this store writes`
  for (const [name, spec] of Object.entries(fields)) {
    const optional = spec.endsWith('?')
    const kind = (optional ? spec.slice(0, -1) : spec) as FieldKind
    const field = value[name]
    if (field === undefined && optional) continue
    if (!hasKind(field, kind)) return `its "${type}" event has no ${kind} "${name}"`
    const allowed = ONE_OF[name]
    if (allowed !== undefined && typeof field === 'string' && !allowed.includes(field)) {
      return `its "${type}" event has "${name}": "${field}", not one of ${allowed.join(', ')}`
    }
  }
  return undefined
}

function hasKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'any':
      return value !== undefined
    case 'array':
      return Array.isArray(value) && value.every(isObject)
    case 'object':
      return isObject(value)
    default:
      return typeof value === kind
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
