// The `read` tool: one stat, then the line window from `readText` (small files) or from the
// raw bytes (large or unknown size, seeking with the line index), then `fs/observed`.
// Rendering and scanning live in read-render.ts (Cordis-free); this module is the I/O.
import { z } from 'zod'
import { FsError } from '@deepseek-ai/dsh-fs'
import type { FsInfo, FsTarget } from '@deepseek-ai/dsh-fs'
import { notFoundError } from '@deepseek-ai/dsh-fs/provider'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type {
  ToolCallPresentation,
  ToolExecution,
  ToolPresentationView,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'
import { forModel } from './failures'
import { filePathInput, resolveFor, type ToolFsHost } from './input'
import type { LineIndexCache } from './line-index'
import { presentFailure, titlePath } from './present'
import { checkFile } from './preview'
import { readCardContent } from './read-card'
import { READ_MAX_LINES, isOffsetPastEnd, renderReadOutput, textWindow } from './read-render'
import type { ReadWindow } from './read-render'
import { ReadWindowScanner } from './read-scan'

export const readInput = z.object({
  file_path: filePathInput(
    'The file to read: an absolute path, or a path relative to the workspace.',
  ),
  offset: z.number().int().min(1).optional().describe('The 1-based line to start at (default 1).'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`The most lines to show (default and maximum ${READ_MAX_LINES}).`),
})

export type ReadArgs = z.infer<typeof readInput>

/** `details` of a read, for presentation. */
export interface ReadDetails {
  /** Absolute path read. */
  path: string
  /** First and last line shown (endLine < startLine for an empty file). */
  startLine: number
  endLine: number
  /** Lines in the file, when counted. */
  totalLines?: number
  capped: boolean
  /** Where the text came from, when the provider says (`editor`, `disk`). */
  source?: string
  /** The window's lines as shown (for the card; the model gets them numbered). */
  lines: string[]
}

export interface ReadToolOptions {
  /** Files up to this size are read whole with `readText`; larger ones stream their bytes. */
  smallFileBytes: number
  lineIndex: LineIndexCache
}

export const readPrompt = `## Reading files (read)
- \`file_path\` is an absolute path or a path relative to the workspace.
- Output lines are numbered \`N: text\`. The numbers and the \`: \` are not part of the file.
- At most ${READ_MAX_LINES} lines (and 50 KiB) per call; lines over 2000 characters are cut. To page, call
  read again with the \`offset\` the footer gives; use \`offset\` and \`limit\` to read a part of a large file.
- Read a file before you edit or overwrite it; read it again when a tool says it changed.`

export function createReadTool(host: ToolFsHost, options: ReadToolOptions) {
  return defineTool<typeof readInput, ReadDetails>({
    name: 'read',
    description:
      'Read a text file. Shows numbered lines (a window of at most 2000 lines) and how to continue.',
    input: readInput,
    execute: (args, exec) => applyRead(host, options, args, exec),
    presentCall: presentReadCall,
    access: () => ({ effect: 'read' }),
    presentResult: presentReadResult,
  })
}

/** `Read <path>`, the read card (summary, then the window's text fenced), the first line. */
export function presentReadResult(
  args: ReadArgs,
  result: ToolResultView<ReadDetails>,
  view?: ToolPresentationView,
): ToolResultPresentation | undefined {
  if (result.isError) return presentFailure(result, view)
  const details = result.details
  if (details === undefined || !Array.isArray(details.lines)) return undefined
  const empty = details.lines.length === 0
  return {
    title: `Read ${titlePath(args.file_path, view)}`,
    content: readCardContent(details),
    locations: [
      empty ? { path: args.file_path } : { path: args.file_path, line: details.startLine },
    ],
  }
}

/** The call card: `Read <path>`, kind read, `offset N, limit M` as its input, the file (and line). */
export function presentReadCall(args: ReadArgs, view?: ToolPresentationView): ToolCallPresentation {
  const parts: string[] = []
  if (args.offset !== undefined) parts.push(`offset ${args.offset}`)
  if (args.limit !== undefined) parts.push(`limit ${args.limit}`)
  return {
    title: `Read ${titlePath(args.file_path, view)}`,
    kind: 'read',
    ...(parts.length > 0 ? { rawInput: parts.join(', ') } : {}),
    locations: [
      args.offset === undefined
        ? { path: args.file_path }
        : { path: args.file_path, line: args.offset },
    ],
  }
}

async function applyRead(
  host: ToolFsHost,
  options: ReadToolOptions,
  args: ReadArgs,
  exec: ToolExecution,
) {
  const target = await resolveFor(host, args.file_path, exec)
  try {
    return await readWindow(host, options, target, args, exec)
  } catch (error) {
    throw forModel(error, { path: target.displayPath, action: 'read' })
  }
}

async function readWindow(
  host: ToolFsHost,
  options: ReadToolOptions,
  target: FsTarget,
  args: ReadArgs,
  exec: ToolExecution,
) {
  const offset = args.offset ?? 1
  const limit = Math.min(args.limit ?? READ_MAX_LINES, READ_MAX_LINES)
  if (args.offset !== undefined || args.limit !== undefined) {
    const lines = await readLines(host, target, offset, limit, exec.signal)
    if (lines !== undefined) {
      host.events.emit('fs/observed', target, lines.version, exec)
      return readResult(target, lines.window, lines.source)
    }
  }
  const info = await host.fs.stat(target, exec.signal)
  checkReadable(target, info)
  const window =
    info.size !== undefined && info.size <= options.smallFileBytes
      ? textWindow(await host.fs.readText(target, exec.signal), offset, limit)
      : await readLarge(host, options.lineIndex, target, info.version, offset, limit, exec.signal)
  if (isOffsetPastEnd(window)) {
    const lines = window.totalLines ?? 0
    throw new FsError('FS_OFFSET_PAST_END', `Line ${offset} is past the end of the file.`, {
      path: target.displayPath,
      details: { offset, lines },
    })
  }
  host.events.emit('fs/observed', target, info.version, exec)
  return readResult(target, window, info.source)
}

function readResult(target: FsTarget, window: ReadWindow, source: string | undefined) {
  const details: ReadDetails = {
    path: target.displayPath,
    startLine: window.startLine,
    endLine: window.startLine + window.lines.length - 1,
    totalLines: window.totalLines,
    capped: window.capped,
    ...(source !== undefined && { source }),
    lines: window.lines,
  }
  return { content: renderReadOutput(target.displayPath, window), details }
}

/**
 * The window read as its lines alone, when the provider can (an editor answering a range):
 * one line more than shown is asked for, to tell whether the file goes on. `undefined` when it
 * cannot, or when nothing came back (an empty file, an offset past the end: the whole read
 * says which, with the line count).
 */
async function readLines(
  host: ToolFsHost,
  target: FsTarget,
  offset: number,
  limit: number,
  signal?: AbortSignal,
): Promise<{ window: ReadWindow; version: string; source?: string } | undefined> {
  const read = await host.fs.readLines(target, { line: offset, limit: limit + 1 }, signal)
  if (read === undefined) return undefined
  const found = textWindow(read.text, 1, limit)
  if (found.lines.length === 0) return undefined
  const last = offset + found.lines.length - 1
  const more = found.capped || (found.totalLines ?? 0) > limit
  const totalLines = read.totalLines ?? (more ? undefined : last)
  const window: ReadWindow = {
    startLine: offset,
    lines: found.lines,
    capped: found.capped,
    reachedEnd: !more,
    ...(totalLines !== undefined && { totalLines }),
  }
  return {
    window,
    version: read.version,
    ...(read.source !== undefined && { source: read.source }),
  }
}

function checkReadable(target: FsTarget, info: FsInfo | undefined): asserts info is FsInfo {
  if (info === undefined) throw notFoundError(target.displayPath)
  checkFile(target.displayPath, info)
}

async function readLarge(
  host: ToolFsHost,
  lineIndex: LineIndexCache,
  target: FsTarget,
  version: string,
  offset: number,
  limit: number,
  signal?: AbortSignal,
): Promise<ReadWindow> {
  const index = lineIndex.get(target.targetKey, version)
  const total = index.totalLines
  if (total !== undefined && offset > 1 && offset > total) {
    return { startLine: offset, lines: [], totalLines: total, capped: false, reachedEnd: true }
  }
  const from = index.nearest(offset)
  const scanner = new ReadWindowScanner({
    offset,
    limit,
    firstLine: from.line,
    firstByte: from.byte,
    knownTotal: total,
    indexEvery: index.every,
    onLineStart: (line, byte) => index.record(line, byte),
  })
  const into = scanner.arena()
  const options = { start: from.byte, version, ...(into && { into }) }
  for await (const chunk of host.fs.streamBytes(target, options, signal)) {
    if (!scanner.push(chunk)) break
  }
  const window = scanner.finish()
  if (window.reachedEnd) index.totalLines = window.totalLines
  return window
}
