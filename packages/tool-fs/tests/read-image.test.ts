// read_image over the real disk (LocalFileSystem on a temporary directory): the type told by
// the bytes, the size bound, the image sent as base64 beside a line of text, the card, and the
// plugin's life.
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import { testExecution, testSession } from '@deepseek-ai/dsh-tools/testing'
import * as ToolImage from '../src/image/index'
import { sniffImageType } from '../src/image/index'

/** The smallest PNG there is: one transparent pixel. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
const JPEG_START = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1])
const WEBP_START = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
])

let dir: string
let ctx: Context

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-tool-image-')))
  ctx = new Context()
  await ctx.plugin(LocalFileSystem, { cwd: dir })
  await ctx.plugin(ToolRegistry)
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const readImage = (file_path: string) =>
  ctx.tools.execute(
    testExecution('read_image', { file_path }, { session: testSession({ id: 's1', cwd: dir }) }),
  )

describe('what counts as an image', () => {
  it('tells png, jpeg, gif and webp by their first bytes', () => {
    expect(sniffImageType(PNG)).toBe('image/png')
    expect(sniffImageType(JPEG_START)).toBe('image/jpeg')
    expect(sniffImageType(GIF)).toBe('image/gif')
    expect(sniffImageType(WEBP_START)).toBe('image/webp')
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WAVE'))).toBeUndefined()
    expect(sniffImageType(Buffer.from('\x89PNG'))).toBeUndefined()
  })

  it('reads a png named .txt as a png, and refuses text named .png', async () => {
    await ctx.plugin(ToolImage)
    await writeFile(join(dir, 'shot.txt'), PNG)
    await writeFile(join(dir, 'fake.png'), 'not an image at all\n')
    const real = await readImage('shot.txt')
    expect(real.isError).toBe(false)
    expect(real.images).toEqual([{ mimeType: 'image/png', data: PNG.toString('base64') }])
    expect(real.content[0]?.text).toBe(
      `Read image ${join(dir, 'shot.txt')}: PNG, 70 bytes. The image follows.`,
    )
    const fake = await readImage('fake.png')
    expect(fake.isError).toBe(true)
    expect(fake.error?.code).toBe('IMAGE_UNSUPPORTED_TYPE')
    expect(fake.content[0]?.text).toContain('is not a PNG, JPEG, GIF or WebP image')
    expect(fake.images).toBeUndefined()
  })
})

describe('bounds and failures', () => {
  it('refuses a file over maxBytes before reading it, saying what to do', async () => {
    await ctx.plugin(ToolImage, { maxBytes: 2048 })
    await writeFile(join(dir, 'big.png'), Buffer.concat([PNG, Buffer.alloc(4096)]))
    const result = await readImage('big.png')
    expect(result.error?.code).toBe('IMAGE_TOO_LARGE')
    expect(result.content[0]?.text).toContain('over the 2.0 KiB read_image sends')
  })

  it('says a missing file, a directory and an empty file apart', async () => {
    await ctx.plugin(ToolImage)
    await writeFile(join(dir, 'empty.gif'), '')
    expect((await readImage('missing.png')).error?.code).toBe('FS_NOT_FOUND')
    expect((await readImage('.')).error?.code).toBe('FS_NOT_REGULAR_FILE')
    expect((await readImage('empty.gif')).error?.code).toBe('IMAGE_EMPTY')
  })
})

describe('the card and the plugin', () => {
  it('shows Read image <path>, kind read, at the file; the result names type and size', async () => {
    await ctx.plugin(ToolImage)
    await writeFile(join(dir, 'dot.gif'), GIF)
    const view = { cwd: dir }
    const args = { file_path: join(dir, 'dot.gif') }
    expect(ctx.tools.presentCall('read_image', args, view)).toEqual({
      title: 'Read image dot.gif',
      kind: 'read',
      locations: [{ path: join(dir, 'dot.gif') }],
    })
    const result = await readImage('dot.gif')
    const closing = ctx.tools.presentResult('read_image', args, result, view)
    expect(closing?.content).toEqual([
      { type: 'text', text: `GIF image, ${GIF.length} bytes, sent to the model` },
    ])
  })

  it('marks its schema as returning images and goes away on dispose', async () => {
    const fiber = await ctx.plugin(ToolImage)
    expect(ctx.tools.schemas().find((schema) => schema.name === 'read_image')?.returnsImages).toBe(
      true,
    )
    await fiber.dispose()
    expect(ctx.tools.names()).toEqual([])
  })
})
