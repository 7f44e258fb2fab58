// The start's front: before the program is loaded, it answers the client's `initialize` and
// first `session/new` as the stack answered them last time for this setup (./front-answers), so
// the editor shows its new session while the stack loads behind it. It answers only the
// opening it knows: `initialize` asked with the same params as then, right at the start, then a
// `session/new` with an existing directory, no added directories and well-formed MCP servers,
// within WAIT_MS. Anything else (another request, a line that is not a request, a pause, the
// input's end, no answers kept) ends the front at once, and the stack answers. Everything the
// client sent, answered or not, reaches the program from its first byte (the handoff's stdin):
// the stack handles the answered requests as well, the session taking the id given out, and its
// own answers are checked against the front's, not sent (./front-tap).
import { randomUUID } from 'node:crypto'
import { statSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import { PassThrough } from 'node:stream'
import type { Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import type { FrontAnswered, FrontHandoff } from './front-handoff'
import { readEntries, setupOf, writeAnswers } from './front-answers'

/** How long the front waits for the opening's next request, in ms, before the stack loads. */
export const WAIT_MS = 100

/** The longest first line the front reads; a longer one is the stack's. */
const MAX_LINE = 64 * 1024

export interface FrontOptions {
  bundle: string
  argv: readonly string[]
  env: Record<string, string | undefined>
  stdin: Readable
  stdout: { write(text: string): unknown }
  /** Called once, after any answer the front wrote (on a later turn of the event loop). */
  handOff(handoff: FrontHandoff): void
}

/** Reads the client's opening, answers what it can, then hands off to the program. */
export function runFront(options: FrontOptions): void {
  const { bundle, stdin, stdout } = options
  const setup = setupOf(bundle, options.argv, options.env)
  const entry = readEntries(bundle).find((kept) => kept.setup === setup)
  const sessionIds: string[] = []
  const handoff: FrontHandoff = {
    answered: [],
    sessionIds: () => sessionIds.shift(),
    remember: (answers) => void writeAnswers(bundle, setup, answers),
  }
  if (entry === undefined) {
    options.handOff(handoff) // nothing to answer from: the input is the program's, untouched
    return
  }
  const input = new PassThrough({ highWaterMark: 1024 * 1024 })
  // A failing input ends, as a closed one does: the program then ends as it would.
  stdin.on('error', () => input.end())
  stdin.pipe(input)
  handoff.stdin = input

  const decoder = new StringDecoder('utf8')
  let text = ''
  let expecting: 'initialize' | 'session/new' = 'initialize'
  let ended = false
  const end = () => {
    if (ended) return
    ended = true
    clearTimeout(timer)
    stdin.off('data', read)
    stdin.off('end', end)
    setImmediate(() => options.handOff(handoff))
  }
  let timer = setTimeout(end, WAIT_MS)
  const answer = (id: FrontAnswered['id'], method: FrontAnswered['method'], result: object) => {
    const answered = { id, method, result: result as Record<string, unknown> }
    handoff.answered.push(answered)
    stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`)
  }
  const take = (line: string) => {
    const request = requestOf(line)
    if (request === undefined || request.method !== expecting) return end()
    if (expecting === 'initialize') {
      if (JSON.stringify(request.params ?? null) !== entry.initialize.params) return end()
      answer(request.id, 'initialize', entry.initialize.result)
      expecting = 'session/new'
      clearTimeout(timer)
      timer = setTimeout(end, WAIT_MS)
      return
    }
    if (entry.sessionNew === undefined || !plainNewSession(request.params)) return end()
    const sessionId = randomUUID()
    sessionIds.push(sessionId)
    answer(request.id, 'session/new', { sessionId, ...entry.sessionNew })
    end()
  }
  function read(chunk: Buffer): void {
    text += decoder.write(chunk)
    let newline: number
    while (!ended && (newline = text.indexOf('\n')) >= 0) {
      const line = text.slice(0, newline)
      text = text.slice(newline + 1)
      take(line)
    }
    if (!ended && text.length > MAX_LINE) end()
  }
  stdin.on('data', read)
  stdin.on('end', end)
}

/** A JSON-RPC request on `line`: its id, method and params; undefined for anything else. */
function requestOf(
  line: string,
): { id: FrontAnswered['id']; method: unknown; params: unknown } | undefined {
  let message: unknown
  try {
    message = JSON.parse(line)
  } catch {
    return undefined
  }
  if (typeof message !== 'object' || message === null) return undefined
  const { jsonrpc, id, method, params } = message as Record<string, unknown>
  if (jsonrpc !== '2.0' || (typeof id !== 'number' && typeof id !== 'string')) return undefined
  return { id, method, params }
}

/** A `session/new` the stack opens as the front answered it (else the stack answers it). */
function plainNewSession(params: unknown): boolean {
  if (typeof params !== 'object' || params === null) return false
  const { cwd, additionalDirectories, mcpServers } = params as Record<string, unknown>
  if (typeof cwd !== 'string' || !isAbsolute(cwd) || !isDirectory(cwd)) return false
  if (additionalDirectories != null && !isEmptyArray(additionalDirectories)) return false
  return Array.isArray(mcpServers) && mcpServers.every(isMcpServer)
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

function isEmptyArray(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0
}

/** An MCP server as ACP gives it: stdio (command, args, env) or http/sse (url, headers). */
function isMcpServer(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  const server = value as Record<string, unknown>
  if (typeof server.name !== 'string') return false
  if (server.type === 'http' || server.type === 'sse') {
    return typeof server.url === 'string' && isPairs(server.headers)
  }
  if (server.type !== undefined && server.type !== 'stdio') return false
  return (
    typeof server.command === 'string' &&
    Array.isArray(server.args) &&
    server.args.every((arg) => typeof arg === 'string') &&
    isPairs(server.env)
  )
}

/** An array of `{ name, value }` strings (headers, environment). */
function isPairs(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (pair: unknown) =>
        typeof pair === 'object' &&
        pair !== null &&
        typeof (pair as Record<string, unknown>).name === 'string' &&
        typeof (pair as Record<string, unknown>).value === 'string',
    )
  )
}
