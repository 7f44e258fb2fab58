// `dsh-acp --login` and `--logout`: the terminal login an editor runs (ACP's terminal auth) or a
// person types. The login asks for the key without echo on a terminal (raw mode; the keys read
// by Node's readline), or reads it from stdin when that is not a terminal (a pipe, a test);
// checks it with the server's `GET /models` where it can (a 401 or 403 refuses it; a server
// that cannot be reached or has no list is said plainly, and the key is stored anyway); and
// stores it (./credentials). Not the key order of a running agent (./api-key).
import { createRequire } from 'node:module'
import type { Key } from 'node:readline'
import type { Readable } from 'node:stream'
import { apiKeyFromEnv, isDeepSeekHost } from '@deepseek-ai/dsh-llm-openai'
import { removeKey, serverOf, storeKey } from './credentials'

export interface LoginIo {
  /** The key's source: a terminal (raw mode, no echo) or any stream (its first line). */
  input: Readable & { isTTY?: boolean; setRawMode?(raw: boolean): unknown }
  /** What the person reads: the question, the check, where the key went. */
  out: { write(text: string): unknown }
  /** Why nothing was stored. */
  err: { write(text: string): unknown }
}

export interface LoginOptions extends LoginIo {
  baseUrl: string
  file: string
  env: Record<string, string | undefined>
  /** The longest wait for the server's answer to the check, in ms (default 10 s). */
  timeoutMs?: number
}

/** What the server said of a key. */
export type KeyCheck =
  { kind: 'accepted' } | { kind: 'refused'; status: number } | { kind: 'unchecked'; reason: string }

/** The longest key read; a longer line is not a key. */
const MAX_KEY_CHARS = 1024

/** Runs the login; the exit code (0 stored, 1 nothing stored, 130 cancelled). */
export async function runLogin(options: LoginOptions): Promise<number> {
  const { out, err, baseUrl } = options
  const server = serverOf(baseUrl)
  const where = isDeepSeekHost(baseUrl)
    ? ' (create one at https://platform.deepseek.com/api_keys)'
    : ''
  const typed = options.input.isTTY === true
  if (typed) out.write(`API key for ${server}${where}, typed without echo: `)
  const entered = typed ? await readHidden(options.input, out) : await readFirstLine(options.input)
  if (entered === undefined) {
    err.write('dsh-acp: login cancelled; nothing was stored.\n')
    return 130
  }
  const key = entered.trim()
  const bad = keyProblem(key)
  if (bad !== undefined) {
    err.write(`dsh-acp: ${bad}; nothing was stored. Run dsh-acp --login again.\n`)
    return 1
  }
  const check = await checkKey(baseUrl, key, options.timeoutMs)
  if (check.kind === 'refused') {
    err.write(
      `dsh-acp: ${server} refused this key (${check.status}); nothing was stored. Check the key and run dsh-acp --login again.\n`,
    )
    return 1
  }
  out.write(
    check.kind === 'accepted'
      ? `${server} accepted the key.\n`
      : `Could not check the key: ${check.reason}. It is stored anyway; a wrong key shows as an error at the first prompt.\n`,
  )
  storeKey(options.file, baseUrl, key)
  out.write(
    `Stored the key for ${server} in ${options.file} (readable only by you). Start a new thread in your editor.\n`,
  )
  if (apiKeyFromEnv(options.env) !== undefined) out.write(ENV_FIRST)
  return 0
}

/** Runs the logout: the stored key of the server removed; 0 either way. */
export function runLogout(options: Omit<LoginOptions, keyof LoginIo> & Pick<LoginIo, 'out'>) {
  const server = serverOf(options.baseUrl)
  options.out.write(
    removeKey(options.file, options.baseUrl)
      ? `Removed the key for ${server} from ${options.file}.\n`
      : `No key was stored for ${server} in ${options.file}; nothing to remove.\n`,
  )
  if (apiKeyFromEnv(options.env) !== undefined) options.out.write(ENV_FIRST)
  return 0
}

const ENV_FIRST =
  'Note: a key is set in this environment (DSH_API_KEY, DEEPSEEK_API_KEY or OPENAI_API_KEY), and dsh uses it before the stored one.\n'

/** Why `key` cannot be a key, or undefined. */
export function keyProblem(key: string): string | undefined {
  if (key === '') return 'no key was given'
  if (key.length > MAX_KEY_CHARS) return `that is ${key.length} characters, too long for a key`
  if (/[\s\p{Cc}]/u.test(key)) return 'a key has no spaces or control characters'
  return undefined
}

/** Asks `GET {baseUrl}/models` with the key: accepted, refused (401, 403) or unchecked. */
export async function checkKey(baseUrl: string, key: string, timeoutMs = 10_000) {
  const url = `${baseUrl.replace(/\/+$/, '')}/models`
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json', authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(timeoutMs),
    })
    await response.body?.cancel()
    if (response.ok) return { kind: 'accepted' } satisfies KeyCheck
    if (response.status === 401 || response.status === 403) {
      return { kind: 'refused', status: response.status } satisfies KeyCheck
    }
    return { kind: 'unchecked', reason: `the server answered ${response.status} to GET /models` }
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message
    const reason = cause ?? (error instanceof Error ? error.message : String(error))
    return { kind: 'unchecked', reason: `${serverOf(baseUrl)} could not be reached (${reason})` }
  }
}

/** The next state of a hidden line after one key: the text, and whether it ended. */
export function applyKey(
  text: string,
  typed: string | undefined,
  key: Key | undefined,
): { text: string; done?: 'enter' | 'cancel' } {
  if (key?.ctrl === true && key.name === 'c') return { text, done: 'cancel' }
  if (key?.ctrl === true && key.name === 'd')
    return { text, done: text === '' ? 'cancel' : 'enter' }
  if (key?.name === 'return' || key?.name === 'enter') return { text, done: 'enter' }
  if (key?.name === 'backspace') return { text: text.slice(0, -1) }
  if (key?.ctrl === true || key?.meta === true) return { text }
  // Printable characters only: arrows and other escapes come with no text or with control codes.
  if (typed === undefined || /\p{Cc}/u.test(typed)) return { text }
  return { text: text + typed }
}

/** Reads one line from a terminal in raw mode, echoing nothing; undefined when cancelled. */
function readHidden(input: LoginIo['input'], out: LoginIo['out']): Promise<string | undefined> {
  // node:readline is loaded here, by `--login` only, not at every start.
  const readline = createRequire(import.meta.url)('node:readline') as typeof import('node:readline')
  readline.emitKeypressEvents(input)
  input.setRawMode?.(true)
  input.resume()
  return new Promise((resolve) => {
    let text = ''
    const onKey = (typed: string | undefined, key: Key | undefined) => {
      const next = applyKey(text, typed, key)
      text = next.text
      if (next.done === undefined) return
      input.off('keypress', onKey)
      input.setRawMode?.(false)
      input.pause()
      out.write('\n')
      resolve(next.done === 'enter' ? text : undefined)
    }
    input.on('keypress', onKey)
  })
}

/** The first line of a stream that is not a terminal (to its end or its first newline). */
async function readFirstLine(input: Readable): Promise<string> {
  let text = ''
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8')
    const newline = text.indexOf('\n')
    if (newline >= 0) return text.slice(0, newline)
    if (text.length > MAX_KEY_CHARS * 4) break
  }
  return text
}
