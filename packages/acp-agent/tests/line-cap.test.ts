import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LineCap, capLineLength } from '../src/start/line-cap'
import { BIN, ensureBuilt } from './helpers/build'
import { envWithoutKey } from './helpers/spawn-bin'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

function run(
  chunks: string[],
  maxLineBytes: number,
): { out: string; dropped: number[]; ids: (string | number)[] } {
  const dropped: number[] = []
  const ids: (string | number)[] = []
  const cap = new LineCap({
    maxLineBytes,
    onDropped: ({ bytes, id }) => {
      dropped.push(bytes)
      if (id !== undefined) ids.push(id)
    },
  })
  const parts: Uint8Array[] = []
  for (const chunk of chunks) cap.push(encoder.encode(chunk), (part) => parts.push(part))
  cap.end((part) => parts.push(part))
  return { out: parts.map((part) => decoder.decode(part)).join(''), dropped, ids }
}

describe('line cap', () => {
  it('passes lines within the limit unchanged, across chunk boundaries', () => {
    expect(run(['{"a":', '1}\n{"b"', ':2}\n'], 8)).toEqual({
      out: '{"a":1}\n{"b":2}\n',
      dropped: [],
      ids: [],
    })
  })

  it('replaces a line over the limit with one placeholder line and reports its length', () => {
    const { out, dropped } = run(['ok\n', 'x'.repeat(5), 'x'.repeat(6), '\nafter\n'], 10)
    expect(out).toBe('ok\n<dsh-acp: dropped an oversized line>\nafter\n')
    expect(dropped).toEqual([11])
  })

  it('a request over the limit is taken out whole and its id handed on, even within one chunk', () => {
    const request =
      '{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"x":"' + 'y'.repeat(50)
    expect(run(['ok\n', request, '"}}\nafter\n'], 20)).toEqual({
      out: 'ok\nafter\n',
      dropped: [request.length + 3],
      ids: [7],
    })
    expect(run([`${request}"}}\n`], 20).ids).toEqual([7])
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

  it('answers a request over the limit with an error for its id that says the limit', async () => {
    const child = spawn(process.execPath, [BIN], { cwd: workspace, env: envWithoutKey() })
    child.stderr.resume()
    const lines = createInterface({ input: child.stdout })
    const responses: { id?: unknown; error?: { code: number; message: string } }[] = []
    const gotBoth = new Promise<void>((resolve) => {
      lines.on('line', (line) => {
        responses.push(JSON.parse(line) as (typeof responses)[number])
        if (responses.length === 2) resolve()
      })
    })
    // A prompt embedding a 40 MB file, written in pieces as an editor's pipe carries it.
    const head = '{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s",'
    child.stdin.write(`${head}"prompt":[{"type":"text","text":"`)
    const piece = Buffer.alloc(1024 * 1024, 'y')
    for (let n = 0; n < 40; n++) child.stdin.write(piece)
    child.stdin.write('"}]}}\n')
    const initialize = {
      jsonrpc: '2.0',
      id: 8,
      method: 'initialize',
      params: { protocolVersion: 1 },
    }
    child.stdin.write(`${JSON.stringify(initialize)}\n`)
    await gotBoth
    const peakKb = Number(
      /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1],
    )
    child.stdin.end()
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(responses[0]).toMatchObject({ id: 7, error: { code: -32600 } })
    expect(responses[0]?.error?.message).toContain(
      "over this agent's limit of 33554432 bytes (32 MiB)",
    )
    expect(responses[1]).toMatchObject({ id: 8, result: { protocolVersion: 1 } })
    // The line is never held whole: at most the limit of it, beside the bin's own memory.
    console.log(
      `line cap: a 40 MB request answered; the bin's peak resident memory ${Math.round(peakKb / 1024)} MiB`,
    )
    expect(peakKb).toBeLessThan(256 * 1024)
    expect(code).toBe(0)
  }, 120_000)
})
