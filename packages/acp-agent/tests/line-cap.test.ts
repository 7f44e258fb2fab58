import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LineCap, capLineLength } from '../src/line-cap'
import { BIN, ensureBuilt } from './helpers/build'
import { envWithoutKey } from './helpers/spawn-bin'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

function run(chunks: string[], maxLineBytes: number): { out: string; dropped: number[] } {
  const dropped: number[] = []
  const cap = new LineCap({ maxLineBytes, onDropped: (bytes) => dropped.push(bytes) })
  const parts: Uint8Array[] = []
  for (const chunk of chunks) cap.push(encoder.encode(chunk), (part) => parts.push(part))
  cap.end((part) => parts.push(part))
  return { out: parts.map((part) => decoder.decode(part)).join(''), dropped }
}

describe('line cap', () => {
  it('passes lines within the limit unchanged, across chunk boundaries', () => {
    expect(run(['{"a":', '1}\n{"b"', ':2}\n'], 8)).toEqual({
      out: '{"a":1}\n{"b":2}\n',
      dropped: [],
    })
  })

  it('replaces a line over the limit with one placeholder line and reports its length', () => {
    const { out, dropped } = run(['ok\n', 'x'.repeat(5), 'x'.repeat(6), '\nafter\n'], 10)
    expect(out).toBe('ok\n<dsh-acp: dropped an oversized line>\nafter\n')
    expect(dropped).toEqual([11])
  })

  it('counts bytes, not characters', () => {
    expect(run(['ééé\n'], 5).dropped).toEqual([6])
    expect(run(['éé\n'], 5).out).toBe('éé\n')
  })

  it('keeps an unterminated last line, or its placeholder when it is too long', () => {
    expect(run(['tail'], 8).out).toBe('tail')
    expect(run(['x'.repeat(9)], 8).out).toBe('<dsh-acp: dropped an oversized line>\n')
  })

  it('works as a stream transform', async () => {
    const input = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('a\n' + 'y'.repeat(20) + '\nb\n'))
        controller.close()
      },
    })
    const text = await new Response(capLineLength(input, { maxLineBytes: 4 })).text()
    expect(text).toBe('a\n<dsh-acp: dropped an oversized line>\nb\n')
  })
})

describe('the bin with a line over 32 MiB', () => {
  let workspace: string
  beforeAll(async () => {
    ensureBuilt()
    workspace = await mkdtemp(join(tmpdir(), 'dsh-line-cap-'))
  }, 420_000)
  afterAll(async () => {
    await rm(workspace, { recursive: true, force: true })
  })

  it('answers it with a parse error and keeps serving', async () => {
    const child = spawn(process.execPath, [BIN], { cwd: workspace, env: envWithoutKey() })
    const stderr: string[] = []
    child.stderr.setEncoding('utf8').on('data', (text: string) => stderr.push(text))
    const lines = createInterface({ input: child.stdout })
    const responses: { id?: unknown; error?: { code: number }; result?: unknown }[] = []
    const gotBoth = new Promise<void>((resolve) => {
      lines.on('line', (line) => {
        responses.push(JSON.parse(line) as (typeof responses)[number])
        if (responses.length === 2) resolve()
      })
    })
    const big = Buffer.alloc(33 * 1024 * 1024, 'x')
    child.stdin.write(big)
    child.stdin.write('\n')
    child.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: 1 },
      }) + '\n',
    )
    await gotBoth
    child.stdin.end()
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(responses[0]).toMatchObject({ id: null, error: { code: -32700 } })
    expect(responses[1]).toMatchObject({ id: 1, result: { protocolVersion: 1 } })
    expect(stderr.join('')).toContain(`dropped an incoming line of ${big.length} bytes`)
    expect(code).toBe(0)
  }, 120_000)
})
