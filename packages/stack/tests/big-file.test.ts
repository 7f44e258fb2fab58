import { appendFile, open } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import { deploy, textOf } from './helpers/deployment'
import type { Deployment } from './helpers/deployment'

// 2^19 lines of 40 bytes: a 20 MiB file, read through the byte path and the line index.
const LINES = 524_288
const lineText = (n: number) => `line ${String(n).padStart(7, '0')} ${'x'.repeat(26)}`

let d: Deployment
let file: string
const streams: { start: number; bytes: number }[] = []

beforeAll(async () => {
  d = await deploy()
  file = join(d.dir, 'big.txt')
  const handle = await open(file, 'w')
  for (let first = 1; first <= LINES; first += 65_536) {
    const block: string[] = []
    for (let n = first; n < first + 65_536; n++) block.push(`${lineText(n)}\n`)
    await handle.write(block.join(''))
  }
  await handle.close()
  const original = LocalFileSystem.prototype.streamBytes
  vi.spyOn(LocalFileSystem.prototype, 'streamBytes').mockImplementation(function (
    this: LocalFileSystem,
    ...args: Parameters<LocalFileSystem['streamBytes']>
  ) {
    const record = { start: args[1]?.start ?? 0, bytes: 0 }
    streams.push(record)
    const inner = original.apply(this, args)
    return (async function* () {
      for await (const chunk of inner) {
        record.bytes += chunk.length
        yield chunk
      }
    })()
  })
})

afterAll(async () => {
  vi.restoreAllMocks()
  await d.close()
})

const window = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `${from + i}: ${lineText(from + i)}`).join('\n')

describe('reading a large file', () => {
  let session: ReturnType<Deployment['agent']>
  const agent = () => (session ??= d.agent('s1'))

  it('shows a window in the middle and counts the whole file', async () => {
    const result = await d.run(agent(), 'read', { file_path: file, offset: 262_000, limit: 10 })
    expect(textOf(result)).toBe(
      `<path>${file}</path>\n<type>file</type>\n<content>\n${window(262_000, 10)}\n\n` +
        `(Showing lines 262000-262009 of ${LINES}. Use offset=262010 to continue.)\n</content>`,
    )
    expect(streams.at(-1)).toEqual({ start: 0, bytes: LINES * 40 })
  })

  it('continues from the line index without another pass over the file', async () => {
    const result = await d.run(agent(), 'read', { file_path: file, offset: 262_010, limit: 10 })
    expect(textOf(result)).toContain(
      `${window(262_010, 10)}\n\n(Showing lines 262010-262019 of ${LINES}.`,
    )
    const last = streams.at(-1)!
    expect(last.start).toBeGreaterThan(0)
    expect(last.start).toBeLessThanOrEqual(262_009 * 40)
    expect(last.bytes).toBeLessThan(1 << 20)
  })

  it('shows the last lines with the end-of-file footer', async () => {
    const result = await d.run(agent(), 'read', { file_path: file, offset: LINES - 1 })
    expect(textOf(result)).toContain(
      `${window(LINES - 1, 2)}\n\n(End of file - total ${LINES} lines)`,
    )
    expect(streams.at(-1)!.bytes).toBeLessThan(1 << 20)
  })

  it('refuses an offset past the end from the known count', async () => {
    const result = await d.run(agent(), 'read', { file_path: file, offset: LINES + 1 })
    expect(result.error?.code).toBe('FS_OFFSET_PAST_END')
    expect(textOf(result)).toContain(`which has ${LINES} lines`)
  })

  it('edits the large file after reading a window of it', async () => {
    const edit = await d.run(agent(), 'edit', {
      file_path: file,
      old_string: lineText(400_000),
      new_string: 'edited',
    })
    expect(textOf(edit)).toBe(`Edited file ${file}: replaced 1 occurrence at line 400000.`)
  })

  it('drops the index when the file changes', async () => {
    await appendFile(file, 'one more\n')
    const result = await d.run(agent(), 'read', { file_path: file, offset: 399_999, limit: 3 })
    expect(streams.at(-1)!.start).toBe(0)
    expect(textOf(result)).toContain(
      `399999: ${lineText(399_999)}\n400000: edited\n400001: ${lineText(400_001)}\n\n(Showing lines 399999-400001 of ${LINES + 1}.`,
    )
  })
})
