// The harness's editor: what an ACP client that offers `fs/read_text_file` and
// `fs/write_text_file` holds — open buffers, some with unsaved changes. A read of a file with no
// buffer opens it from disk (as an editor does); a write replaces the buffer and, unless told to
// save, leaves the disk alone (the person reviews and saves). A ranged read (`line`/`limit`) is
// answered as Zed answers it. Every request is recorded. It can
// also hang, to show what a client that never answers costs the agent.
// Test support only.
import { readFile, writeFile } from 'node:fs/promises'
import { RequestError } from '@agentclientprotocol/sdk'
import type {
  ReadTextFileRequest,
  ReadTextFileResponse,
  WriteTextFileRequest,
  WriteTextFileResponse,
} from '@agentclientprotocol/sdk'

export interface HarnessEditorOptions {
  /** Advertise and serve `fs/read_text_file` (default true). */
  read?: boolean
  /** Advertise and serve `fs/write_text_file` (default true). */
  write?: boolean
  /** Save a written buffer to disk at once (default false: the buffer alone changes). */
  saveOnWrite?: boolean
}

export class HarnessEditor {
  /** Open buffers by absolute path; their text may differ from the disk. */
  readonly buffers = new Map<string, string>()
  readonly reads: ReadTextFileRequest[] = []
  readonly writes: WriteTextFileRequest[] = []
  /** When set, requests are recorded and never answered. */
  hang = false
  /** When set, reads are recorded and never answered (writes still are). */
  hangReads = false
  /** When set, each write is recorded, then answered once this settles (a person deciding). */
  holdWrites: Promise<void> | undefined

  constructor(readonly options: HarnessEditorOptions = {}) {}

  /** The `clientCapabilities.fs` this editor advertises. */
  get capabilities(): { readTextFile: boolean; writeTextFile: boolean } {
    return { readTextFile: this.options.read ?? true, writeTextFile: this.options.write ?? true }
  }

  async read(request: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    this.reads.push(request)
    if (this.hang || this.hangReads) return new Promise<ReadTextFileResponse>(() => undefined)
    let text = this.buffers.get(request.path)
    try {
      text ??= await readFile(request.path, 'utf8')
    } catch {
      // As an editor that cannot open the path answers: resource not found.
      throw RequestError.resourceNotFound(request.path)
    }
    return { content: linesOf(text, request.line ?? 1, request.limit ?? undefined) }
  }

  async write(request: WriteTextFileRequest): Promise<WriteTextFileResponse> {
    this.writes.push(request)
    if (this.hang) return new Promise<WriteTextFileResponse>(() => undefined)
    if (this.holdWrites) await this.holdWrites
    this.buffers.set(request.path, request.content)
    if (this.options.saveOnWrite) await writeFile(request.path, request.content)
    return {}
  }
}

/**
 * The text from the start of the 1-based `line` to the start of the line `limit` lines later
 * (or the end), as Zed answers a ranged read; a line past the last is refused as invalid params.
 */
function linesOf(text: string, line: number, limit: number | undefined): string {
  let start = 0
  for (let n = 1; n < line; n++) {
    const newline = text.indexOf('\n', start)
    if (newline === -1) {
      throw RequestError.invalidParams(undefined, 'Attempting to read beyond the end of the file')
    }
    start = newline + 1
  }
  let end = start
  for (let n = 0; n < (limit ?? Infinity) && end < text.length; n++) {
    const newline = text.indexOf('\n', end)
    end = newline === -1 ? text.length : newline + 1
  }
  return limit === undefined ? text.slice(start) : text.slice(start, end)
}
