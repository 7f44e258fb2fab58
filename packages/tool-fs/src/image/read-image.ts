// The `read_image` tool: an image file (PNG, JPEG, GIF, WebP: told by its bytes, not its name)
// read through ctx.fs, bounded in size, and sent to the model as an image beside a line of
// text. Offered only to a model that takes images (`returnsImages`). The card is
// `Read image <path>`, kind read, at the file; it names the type and size but does not carry
// the image (the model has it; the card stays small, in the log and on the wire).
import { z } from 'zod'
import type { FileSystem, FsTarget } from '@deepseek-ai/dsh-fs'
import { notFoundError, notRegularFileError } from '@deepseek-ai/dsh-fs/provider'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type {
  ToolCallPresentation,
  ToolExecution,
  ToolPresentationView,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'
import { ImageError } from './errors'
import { imageTypeName, sniffImageType } from './sniff'
import type { ImageType } from './sniff'
import { sizeText, titlePath } from './words'

export const readImageInput = z.object({
  file_path: z
    .string()
    .min(1)
    .refine((path) => !path.includes('\0'), 'must not contain a NUL character')
    .describe('The image file: an absolute path, or a path relative to the workspace.'),
})

export type ReadImageArgs = z.infer<typeof readImageInput>

/** `details` of a read_image call, for its card. */
export interface ReadImageDetails {
  path: string
  mimeType: ImageType
  bytes: number
}

export interface ReadImageOptions {
  /** The largest file sent, in bytes. */
  maxBytes: number
}

export function createReadImageTool(fs: FileSystem, options: ReadImageOptions) {
  return defineTool<typeof readImageInput, ReadImageDetails>({
    name: 'read_image',
    description: `Look at an image file (PNG, JPEG, GIF or WebP, at most ${sizeText(options.maxBytes)}): a screenshot, a diagram, a rendered page. The image is shown to you after the call.`,
    input: readImageInput,
    returnsImages: true,
    execute: (args, exec) => readImage(fs, options, args, exec),
    presentCall: presentReadImageCall,
    presentResult: presentReadImageResult,
    access: () => ({ effect: 'read' }),
  })
}

export function presentReadImageCall(
  args: ReadImageArgs,
  view?: ToolPresentationView,
): ToolCallPresentation {
  return {
    title: `Read image ${titlePath(args.file_path, view)}`,
    kind: 'read',
    locations: [{ path: args.file_path }],
  }
}

export function presentReadImageResult(
  args: ReadImageArgs,
  result: ToolResultView<ReadImageDetails>,
  view?: ToolPresentationView,
): ToolResultPresentation | undefined {
  const details = result.details
  if (result.isError || details === undefined) return undefined
  const what = `${imageTypeName(details.mimeType)} image, ${sizeText(details.bytes)}, sent to the model`
  return {
    title: `Read image ${titlePath(args.file_path, view)}`,
    content: [{ type: 'text', text: what }],
    locations: [{ path: args.file_path }],
  }
}

async function readImage(
  fs: FileSystem,
  options: ReadImageOptions,
  args: ReadImageArgs,
  exec: ToolExecution,
) {
  const { session } = exec
  const target = await fs.resolve(args.file_path, { cwd: session.header.cwd, session, call: exec })
  const info = await fs.stat(target, exec.signal)
  if (info === undefined) throw notFoundError(target.displayPath)
  if (info.type !== 'file') {
    const what = info.type === 'directory' ? 'a directory' : 'not a regular file'
    throw notRegularFileError(target.displayPath, what)
  }
  if (info.size !== undefined) checkSize(target, info.size, options.maxBytes)
  const bytes = await readBounded(fs, target, options.maxBytes, exec.signal)
  if (bytes.length === 0) {
    throw new ImageError(
      'IMAGE_EMPTY',
      `${target.displayPath} is empty: there is no image to show.`,
    )
  }
  const mimeType = sniffImageType(bytes)
  if (mimeType === undefined) {
    throw new ImageError(
      'IMAGE_UNSUPPORTED_TYPE',
      `${target.displayPath} is not a PNG, JPEG, GIF or WebP image (its bytes say so, whatever its name); read_image sends only those. Use read for a text file.`,
    )
  }
  const details: ReadImageDetails = { path: target.displayPath, mimeType, bytes: bytes.length }
  const text = `Read image ${target.displayPath}: ${imageTypeName(mimeType)}, ${sizeText(bytes.length)}. The image follows.`
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64')
  return { content: text, details, images: [{ mimeType, data }] }
}

function checkSize(target: FsTarget, size: number, maxBytes: number): void {
  if (size <= maxBytes) return
  throw new ImageError(
    'IMAGE_TOO_LARGE',
    `${target.displayPath} is ${sizeText(size)}, over the ${sizeText(maxBytes)} read_image sends. Make a smaller copy (scaled down or cropped) and read that.`,
  )
}

/** The whole file, failing once it passes `maxBytes` (it may have grown since its stat). */
async function readBounded(
  fs: FileSystem,
  target: FsTarget,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let total = 0
  for await (const chunk of fs.streamBytes(target, {}, signal)) {
    total += chunk.length
    checkSize(target, total, maxBytes)
    chunks.push(Uint8Array.from(chunk))
  }
  return Buffer.concat(chunks)
}
