// One session's editor as the provider sees it (AcpFsClient, implemented by the ACP bridge per
// session), and the two calls to it: a read bounded by the provider's timeout, a write waited
// for until answered or cancelled (an editor may ask the person first), each failure turned
// into the FsError the seam promises, naming the path. Not the ACP SDK (this package
// never imports it) and not routing or versions (route.ts, editor-text.ts): only "ask the
// editor, and say plainly what went wrong when it does not answer well".
import { FsError, type FsLineRange } from '@deepseek-ai/dsh-fs'
import { notFoundError, throwIfAborted } from '@deepseek-ai/dsh-fs/provider'

/** One session's editor, as the host hands it over. */
export interface AcpFsClient {
  /** The client advertised fs.readTextFile. */
  readonly canRead: boolean
  /** The client advertised fs.writeTextFile. */
  readonly canWrite: boolean
  /**
   * fs/read_text_file: the buffer's whole text (unsaved changes included), or with `range` its
   * `line`/`limit` (the text from the start of that 1-based line, at most `limit` lines).
   * Rejects with the client's error (an object with a numeric `code` and a `message`, e.g.
   * -32002 "Resource not found").
   */
  readTextFile(path: string, signal: AbortSignal, range?: FsLineRange): Promise<string>
  /** fs/write_text_file: the whole new text, through the editor. */
  writeTextFile(path: string, content: string, signal: AbortSignal): Promise<void>
  /** Tells the person something about the session's files (once-only notices; see stall.ts). */
  notify?(notice: AcpFsNotice): void
  /**
   * The tool call `call` (as `FsResolveOptions.call` gave it) now waits on the editor: its card
   * says so with `text` until the call ends.
   */
  waiting?(call: object, text: string): void
}

export interface AcpFsNotice {
  title: string
  description?: string
  severity?: 'info' | 'warning' | 'error'
}

/** An editor request that got no answer within the provider's timeout. */
export class EditorTimeoutError extends FsError {
  constructor(
    readonly method: EditorMethod,
    path: string,
    readonly timeoutMs: number,
  ) {
    super('FS_IO', timeoutMessage(method, path, timeoutMs), { path })
  }
}

/** The ACP error code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002
const PERMISSION = /permission denied|EACCES|EPERM|read-only|not permitted/i

type EditorMethod = 'fs/read_text_file' | 'fs/write_text_file'

/**
 * The buffer's whole text, as the editor holds it now (a leading U+FEFF included), or the lines
 * of `range` alone.
 */
export function readThroughEditor(
  client: AcpFsClient,
  path: string,
  timeoutMs: number,
  signal?: AbortSignal,
  range?: FsLineRange,
): Promise<string> {
  return callEditor('fs/read_text_file', path, timeoutMs, signal, (bounded) =>
    range === undefined
      ? client.readTextFile(path, bounded)
      : client.readTextFile(path, bounded, range),
  )
}

/**
 * Replaces the whole text through the editor, waiting for its answer as a permission question
 * waits: with no timeout (an editor may put the change to the person first), until it answers
 * or `signal` fires (the call was cancelled). Once sent, the change may land whatever we do, so
 * a cancel says so instead of claiming nothing changed.
 */
export async function writeThroughEditor(
  client: AcpFsClient,
  path: string,
  content: string,
  signal?: AbortSignal,
): Promise<void> {
  throwIfAborted(signal, path)
  const controller = new AbortController()
  const stop = signal ?? controller.signal
  try {
    await untilAborted(client.writeTextFile(path, content, stop), stop)
  } catch (error) {
    if (signal?.aborted) {
      throw new FsError(
        'FS_ABORTED',
        `The call was cancelled while the editor was applying the change to ${path}; it may still land. Read the file again before retrying.`,
        { path },
      )
    }
    throw fromClientError(error, 'fs/write_text_file', path)
  }
}

async function callEditor<T>(
  method: EditorMethod,
  path: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  request: (bounded: AbortSignal) => Promise<T>,
): Promise<T> {
  throwIfAborted(signal, path)
  // A timer of the event loop's (not AbortSignal.timeout), cleared with the answer.
  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(), timeoutMs)
  const bounded = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal
  try {
    return await untilAborted(request(bounded), bounded)
  } catch (error) {
    throwIfAborted(signal, path)
    if (timeout.signal.aborted) throw new EditorTimeoutError(method, path, timeoutMs)
    throw fromClientError(error, method, path)
  } finally {
    clearTimeout(timer)
  }
}

/** The request's answer, or a rejection once `signal` fires (a client may ignore the signal). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason)
    if (signal.aborted) stop()
    signal.addEventListener('abort', stop, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
  })
}

function timeoutMessage(method: EditorMethod, path: string, timeoutMs: number): string {
  const then =
    method === 'fs/read_text_file'
      ? 'Check that the editor is responsive, then retry.'
      : 'The editor may still apply the change: read the file again before retrying.'
  return `The editor did not answer ${method} for ${path} within ${timeoutMs / 1000} s. ${then}`
}

/** The FsError for a client's rejection of `method` on `path`. */
export function fromClientError(error: unknown, method: EditorMethod, path: string): FsError {
  if (error instanceof FsError) return error
  const { code, text } = describeClientError(error)
  if (code === RESOURCE_NOT_FOUND) return notFoundError(path, error)
  const action = method === 'fs/read_text_file' ? 'read' : 'change'
  if (PERMISSION.test(text)) {
    return new FsError(
      'FS_PERMISSION_DENIED',
      `Permission denied for ${path}: the editor refused ${method} (${text}). Choose another path, or change the file's permissions in the editor or on disk.`,
      { path, cause: error },
    )
  }
  const said = code === undefined ? text : `error ${code}: ${text}`
  return new FsError(
    'FS_IO',
    `The editor could not ${action} ${path} (${method} failed with ${said}). Retry; if it persists, check the file in the editor.`,
    { path, cause: error },
  )
}

/** The client error's numeric code, and its message with any detail the client attached. */
function describeClientError(error: unknown): { code?: number; text: string } {
  if (typeof error !== 'object' || error === null) return { text: String(error) }
  const code = 'code' in error && typeof error.code === 'number' ? error.code : undefined
  const message = 'message' in error && typeof error.message === 'string' ? error.message : ''
  const data = 'data' in error ? detailOf(error.data) : undefined
  const text = [message, data].filter((part) => part).join(': ')
  return { code, text: text || 'no message' }
}

/** A JSON-RPC error's `data` as text, when it is a string or carries `details`/`message`. */
function detailOf(data: unknown): string | undefined {
  if (typeof data === 'string') return data
  if (typeof data !== 'object' || data === null) return undefined
  for (const key of ['details', 'message'] as const) {
    const value: unknown = (data as Record<string, unknown>)[key]
    if (typeof value === 'string') return value
  }
  return undefined
}
