// The answers file the start's front (./front) answers from: per setup, what the stack last
// answered to `initialize` (with the params it was asked with) and to `session/new` (less the
// session id). A setup is this bundle (its size and time), this Node, the flags and the
// environment the answers can follow (`DSH_*`, `DEEPSEEK_*`, `OPENAI_*`; a secret's variable only
// as set or not, so the file holds no secret nor a hash of one). The file is kept where the
// code cache is (./bundle-script) and written when the stack's answers differ from it
// (./front-tap), the newest setups first. A file that cannot be read is no file.
import { createHash } from 'node:crypto'
import { statSync } from 'node:fs'
import type { FrontAnswers } from './front-handoff'
import { cachePlaces, readFirst, writeFirst } from './bundle-script'

/** The answers of one setup. */
export interface FrontEntry {
  setup: string
  initialize: { params: string; result: Record<string, unknown> }
  sessionNew?: Record<string, unknown>
}

/** The setups kept: a person may start the agent with a few (two entries in Zed's settings). */
const MAX_ENTRIES = 8

/** The file's shape; another version is no file. */
const FORMAT = 1

/** The environment the answers can follow, by name. */
const RELEVANT = /^(DSH|DEEPSEEK|OPENAI)_/
/** A variable whose value is a secret: kept in the setup only as set or not. */
const SECRET = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/

const places = (bundle: string) => cachePlaces(bundle, 'answers.json')

/** The setup this process answers for. */
export function setupOf(
  bundle: string,
  argv: readonly string[],
  env: Record<string, string | undefined>,
): string {
  const { size, mtimeMs } = statSync(bundle)
  const variables = Object.keys(env)
    .filter((name) => RELEVANT.test(name))
    .sort()
    .map((name) => (SECRET.test(name) ? `${name} set` : `${name}=${env[name]}`))
  const text = JSON.stringify([FORMAT, process.version, size, mtimeMs, argv, variables])
  return createHash('sha256').update(text).digest('hex')
}

/** Every kept entry, newest first (none when there is no readable file). */
export function readEntries(bundle: string): FrontEntry[] {
  const found = readFirst(places(bundle))
  if (found === undefined) return []
  try {
    const file = JSON.parse(found.data.toString('utf8')) as { format?: unknown; entries?: unknown }
    return file.format === FORMAT && Array.isArray(file.entries) ? file.entries.filter(isEntry) : []
  } catch {
    return [] // damaged: the next answers replace it
  }
}

/** Keeps `answers` as setup `setup`'s, first; returns false when no place takes the file. */
export function writeAnswers(bundle: string, setup: string, answers: FrontAnswers): boolean {
  const entries = readEntries(bundle)
  const kept = entries.find((entry) => entry.setup === setup)
  const initialize = answers.initialize ?? kept?.initialize
  if (initialize === undefined) return false // a session/new answer without its initialize
  // Answers to another client's initialize may not fit this one's session/new: kept only with it.
  const sameClient = kept !== undefined && kept.initialize.params === initialize.params
  const sessionNew = answers.sessionNew ?? (sameClient ? kept.sessionNew : undefined)
  const entry: FrontEntry = { setup, initialize, ...(sessionNew !== undefined && { sessionNew }) }
  const rest = entries.filter((other) => other.setup !== setup).slice(0, MAX_ENTRIES - 1)
  return writeFirst(places(bundle), JSON.stringify({ format: FORMAT, entries: [entry, ...rest] }))
}

function isEntry(value: unknown): value is FrontEntry {
  if (typeof value !== 'object' || value === null) return false
  const { setup, initialize, sessionNew } = value as Partial<FrontEntry>
  return (
    typeof setup === 'string' &&
    isObject(initialize) &&
    typeof initialize.params === 'string' &&
    isObject(initialize.result) &&
    (sessionNew === undefined || isObject(sessionNew))
  )
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
