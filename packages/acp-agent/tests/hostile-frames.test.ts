// The BUILT `dsh-acp` bin over real stdio, fed 1,000 seeded malformed or hostile frames (bad
// JSON, invalid bytes, batches, wrong types, unknown methods, unsupported methods, unknown
// sessions, bad params, notifications with bad params, responses to nothing, deep nesting,
// lines of several MB) before and between valid traffic: initialize, session/new and two
// prompts whose scripted turns run read, edit and write. Every addressed request gets exactly
// one response with its code, every frame that cannot be addressed gets one `id: null` error,
// notifications and stray responses get nothing, the valid traffic completes, stdout carries
// only schema-valid JSON-RPC lines, and the process keeps serving until stdin closes.
// Raw lines are written and read here (no SDK client). DSH_FRAMES_SEED=<n> replays a run.
import { spawn } from 'node:child_process'
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FrameRecorder, assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { BIN, ensureBuilt } from './helpers/build'
import { envWithoutKey } from './helpers/spawn-bin'
import { seededRandom } from '@deepseek-ai/dsh-fs/testing'

const SEED = Number.parseInt(process.env.DSH_FRAMES_SEED ?? '', 10) || 1_000
const MB = 1024 * 1024
const WAIT_MS = 60_000

const SCRIPT = {
  turns: [
    {
      text: 'Reading.',
      toolCalls: [{ id: 'r1', name: 'read', arguments: { file_path: 'a.txt' } }],
    },
    {
      toolCalls: [
        {
          id: 'e1',
          name: 'edit',
          arguments: { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' },
        },
      ],
    },
    {
      toolCalls: [{ id: 'w1', name: 'write', arguments: { file_path: 'b.txt', content: 'new\n' } }],
    },
    { text: 'Done.' },
    { toolCalls: [{ id: 'r2', name: 'read', arguments: { file_path: 'b.txt' } }] },
    { text: 'Second done.' },
  ],
}

/** What a frame must draw: one response to its id (with a code, or a result), one id-null error, or nothing. */
type Expectation =
  | { kind: 'answer'; id: string | number; method: string; code: number | 'result' }
  | { kind: 'null'; code: -32700 | -32600 }
  | { kind: 'silent' }

interface Frame {
  bytes: Buffer
  expect: Expectation
  label: string
}

const rpc = (message: object): string => JSON.stringify({ jsonrpc: '2.0', ...message })

const PARSE_ERROR: Expectation = { kind: 'null', code: -32700 }
const INVALID: Expectation = { kind: 'null', code: -32600 }
const SILENT: Expectation = { kind: 'silent' }

// prettier-ignore
const UNKNOWN_METHODS = ['nope', '', '__proto__', 'constructor', 'session/update', 'fs/read_text_file', '_x/y']
// prettier-ignore
const UNOFFERED_METHODS = ['logout', 'session/cancel', '$/cancel_request']
// prettier-ignore
const NOT_JSON = ['garbage', '{', '{"jsonrpc":"2.0",', '{"a":1}{"b":2}', "{'a':1}", '{"jsonrpc":"2.0","id":1,}', 'NaN', '\u0000', '\uD800']
// prettier-ignore
const NOT_A_MESSAGE = ['[]', '[1,2]', `[${rpc({ id: 1, method: 'initialize' })}]`, '"str"', '42', 'null', 'true', '{}']
// prettier-ignore
const BAD_ENVELOPES = [
  JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'initialize', params: {} }),
  JSON.stringify({ id: 7, method: 'initialize', params: { protocolVersion: 1 } }),
  rpc({ id: { a: 1 }, method: 'initialize' }), rpc({ id: true, method: 'nope' }),
  rpc({ id: 3, method: 5 }), rpc({ method: ['x'] }),
]
const NO_SESSIONS = ['nope', '', 'a'.repeat(300), '../../etc', '\u0000', 'h-1']

/** Nested `depth` levels deep, as text: JSON.stringify recurses and would overflow. */
const nestedObject = (key: string, depth: number) =>
  `${`{"${key}":`.repeat(depth)}1${'}'.repeat(depth)}`

/** Generates hostile frames; `initialized` says whether the connection has seen initialize. */
class HostileFrames {
  private readonly next: () => number
  private count = 0
  private made = 0
  private hugeLeft = 4

  constructor(
    seed: number,
    private readonly workspace: string,
  ) {
    this.next = seededRandom(seed)
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T
  }

  private id(): string | number {
    const k = ++this.count
    return this.pick([100_000 + k, -k, `h-${k}`, `${k}\u202e\u{1F600}`])
  }

  private junk(depth = 0): unknown {
    const leaves = [null, true, 0, -1.5, 1e308, '', '\u0000', '\uFFFD\u202E', 'x'.repeat(200)]
    if (depth > 2 || this.next() < 0.5) return this.pick(leaves)
    return this.next() < 0.5
      ? [this.junk(depth + 1), this.junk(depth + 1)]
      : { a: this.junk(depth + 1), sessionId: this.junk(depth + 1) }
  }

  /** A request with an id: it must get exactly one response, with `code` (or -32600 before initialize). */
  private request(
    method: string,
    params: unknown,
    code: number,
    initialized: boolean,
    raw?: string,
  ): Frame {
    const id = this.id()
    const message = rpc(params === undefined ? { id, method } : { id, method, params })
    // Before initialize, the SDK refuses every method but initialize itself.
    const expected = initialized || method === 'initialize' ? code : -32600
    const text = raw === undefined ? message : `${message.slice(0, -1)},"params":${raw}}`
    return {
      bytes: Buffer.from(`${text}\n`),
      expect: { kind: 'answer', id, method, code: expected },
      label: `${method.slice(0, 40)} → ${expected}`,
    }
  }

  private line(text: string | Buffer, expect: Expectation, label: string): Frame {
    return { bytes: Buffer.concat([Buffer.from(text), Buffer.from('\n')]), expect, label }
  }

  /** Four lines of 1–3 MB, spread over the run. */
  private huge(initialized: boolean): Frame {
    this.hugeLeft--
    if (this.hugeLeft === 3) return this.line('x'.repeat(3 * MB), PARSE_ERROR, '3 MB of garbage')
    if (this.hugeLeft === 2) {
      const prompt = [{ type: 'text', text: 'y'.repeat(2 * MB) }]
      return this.request('session/prompt', { sessionId: 'nope', prompt }, -32002, initialized)
    }
    if (this.hugeLeft === 1) return this.request('m'.repeat(MB), {}, -32601, initialized)
    return this.line(JSON.stringify('z'.repeat(2 * MB)), INVALID, 'a 2 MB string')
  }

  frame(initialized: boolean): Frame {
    if (this.hugeLeft > 0 && ++this.made % 250 === 120) return this.huge(initialized)
    const sessionId = this.pick(NO_SESSIONS)
    const prompt = [{ type: 'text', text: 'hi' }]
    const ask = (method: string, params: unknown, code: number) =>
      this.request(method, params, code, initialized)
    switch (Math.floor(this.next() * 22)) {
      case 0:
        return ask(this.pick(UNKNOWN_METHODS), this.junk(), -32601)
      case 1:
        return ask(this.pick(UNOFFERED_METHODS), { sessionId }, -32601)
      case 2:
        return ask('session/prompt', { sessionId, prompt }, -32002)
      case 3: {
        const params = this.pick([
          { sessionId: 5, prompt },
          { sessionId: 'a', prompt: 'hi' },
          [],
          'x',
          { prompt },
        ])
        return ask('session/prompt', params, -32602)
      }
      case 4: {
        const cwd = this.pick([
          'project',
          '/nonexistent-dsh/x',
          join(this.workspace, 'a.txt'),
          '/tmp/\u0000x',
          '',
        ])
        return ask('session/new', { cwd, mcpServers: [] }, -32602)
      }
      case 5: {
        const params = this.pick([
          { cwd: 5, mcpServers: [] },
          { cwd: this.workspace, mcpServers: 'x' },
          { cwd: this.workspace },
          null,
        ])
        return ask('session/new', params, -32602)
      }
      case 6:
        return ask('initialize', this.pick([{ protocolVersion: 'x' }, {}, [1], 'x']), -32602)
      case 7: {
        const params = this.pick([{ sessionId }, { sessionId: 5 }, {}, []])
        return this.line(
          rpc({ method: 'session/cancel', params }),
          SILENT,
          'a cancel for no session',
        )
      }
      case 8: {
        const method = this.pick(['foo/bar', '$/cancel_request', 'session/update', 'initialized'])
        return this.line(rpc({ method, params: this.junk() }), SILENT, 'an unknown notification')
      }
      case 9: {
        const body = this.pick([{ result: this.junk() }, { error: { code: 1, message: 'x' } }, {}])
        return this.line(rpc({ id: this.id(), ...body }), SILENT, 'a response to nothing')
      }
      case 10:
        return this.line(this.pick(NOT_JSON), PARSE_ERROR, 'not JSON')
      case 11:
        return this.line(Buffer.from([0xff, 0xfe, 0x80, 0xc3, 0x28]), PARSE_ERROR, 'invalid UTF-8')
      case 12:
        return this.line(this.pick(NOT_A_MESSAGE), INVALID, 'not a message')
      case 13:
        return this.line(this.pick(BAD_ENVELOPES), INVALID, 'an invalid envelope')
      case 14: {
        const depth = 20_000 + Math.floor(this.next() * 30_000)
        return this.line(
          `${'['.repeat(depth)}${']'.repeat(depth)}`,
          INVALID,
          'deeply nested arrays',
        )
      }
      case 15:
        // Invalid, so the SDK echoes it in the error's data: too deep for JSON to encode.
        return this.line(nestedObject('a', 10_000), INVALID, 'a deeply nested object')
      case 16: {
        const frame = ask('nope', undefined, -32601)
        const bytes = Buffer.from(`${frame.bytes.toString().trimEnd()}\r\n`)
        return { ...frame, bytes, label: 'a CRLF line' }
      }
      case 17:
        return this.line(this.pick(['', '   ', '\t']), SILENT, 'a blank line')
      case 18:
        return this.request('x/deep', undefined, -32601, initialized, nestedObject('p', 5_000))
      case 19: {
        const image = [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }]
        return ask('session/prompt', { sessionId, prompt: image }, -32002)
      }
      case 20: {
        const params = { sessionId, prompt, _meta: this.junk(), extra: this.junk() }
        return ask('session/prompt', params, -32002)
      }
      default:
        return ask('session/prompt', { sessionId, prompt: [{ type: 'text' }] }, -32602)
    }
  }
}

interface Message {
  id?: unknown
  method?: string
  params?: {
    sessionId?: string
    update?: {
      sessionUpdate?: string
      toolCallId?: string
      status?: string
      content?: { text?: string }
    }
  }
  result?: { stopReason?: string; sessionId?: string; protocolVersion?: number }
  error?: { code?: number; message?: string }
}

/** The bin as a child process, with every stdout line kept and parsed. */
class BinProcess {
  readonly child: ChildProcessWithoutNullStreams
  readonly lines: string[] = []
  readonly messages: Message[] = []
  stderr = ''
  readonly exited: Promise<number | null>
  private readonly waiters = new Set<() => void>()

  constructor(args: string[], cwd: string) {
    this.child = spawn(process.execPath, [BIN, ...args], { cwd, env: envWithoutKey() })
    this.child.stderr.setEncoding('utf8').on('data', (text: string) => (this.stderr += text))
    this.exited = new Promise((resolve) => this.child.on('close', resolve))
    // A write after the bin died fails with EPIPE; `send` reports the exit with its stderr.
    this.child.stdin.on('error', () => undefined)
    createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on('line', (line) => {
      this.lines.push(line)
      try {
        this.messages.push(JSON.parse(line) as Message)
      } catch {
        this.messages.push({})
      }
      for (const wake of this.waiters) wake()
    })
  }

  /** Writes bytes to the bin's stdin; fails with its stderr when the bin is gone. */
  async send(bytes: Buffer | string): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) throw this.exitedError()
    if (this.child.stdin.write(bytes)) return
    await Promise.race([
      new Promise((resolve) => this.child.stdin.once('drain', resolve)),
      this.exited.then(() => Promise.reject(this.exitedError())),
    ])
  }

  responsesTo(id: unknown): Message[] {
    return this.messages.filter((m) => m.method === undefined && 'id' in m && m.id === id)
  }

  exitedError(): Error {
    return new Error(`the bin exited early; stderr:\n${this.stderr.slice(-2000)}`)
  }

  /** Resolves when `done()` holds after some line; rejects naming `what` after WAIT_MS or an exit. */
  waitFor(what: string, done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const stop = (error?: Error) => {
        clearTimeout(timer)
        this.waiters.delete(check)
        if (error) reject(error)
        else resolve()
      }
      const timer = setTimeout(
        () => stop(new Error(`gave up waiting for ${what}; stderr:\n${this.stderr.slice(-2000)}`)),
        WAIT_MS,
      )
      const check = () => {
        if (done()) stop()
      }
      this.waiters.add(check)
      void this.exited.then(() => {
        if (this.waiters.has(check)) stop(this.exitedError())
      })
    })
  }

  async request(id: string, method: string, params: object): Promise<Message> {
    await this.send(`${rpc({ id, method, params })}\n`)
    await this.waitFor(`the response to ${id}`, () => this.responsesTo(id).length > 0)
    return this.responsesTo(id)[0] as Message
  }
}

const run = {
  frames: [] as Frame[],
  valid: {} as Record<string, Message>,
  sessionId: '',
  aliveBeforeClose: false,
  exitCode: null as number | null,
  files: {} as Record<string, string>,
}
let bin: BinProcess
let workspace: string

async function play(): Promise<void> {
  const gen = new HostileFrames(SEED, workspace)
  const hostile = async (n: number, initialized: boolean) => {
    for (let k = 0; k < n; k++) {
      const frame = gen.frame(initialized)
      run.frames.push(frame)
      await bin.send(frame.bytes)
    }
  }
  await hostile(50, false)
  run.valid.init = await bin.request('v-init', 'initialize', {
    protocolVersion: 1,
    clientCapabilities: {},
  })
  await hostile(300, true)
  run.valid.new = await bin.request('v-new', 'session/new', { cwd: workspace, mcpServers: [] })
  run.sessionId = String(run.valid.new.result?.sessionId)
  const prompt = (id: string, text: string) =>
    bin.send(
      `${rpc({ id, method: 'session/prompt', params: { sessionId: run.sessionId, prompt: [{ type: 'text', text }] } })}\n`,
    )
  await prompt('v-prompt-1', 'Fix a.txt and write b.txt.')
  await hostile(300, true)
  await bin.waitFor('the first prompt', () => bin.responsesTo('v-prompt-1').length > 0)
  await hostile(250, true)
  await prompt('v-prompt-2', 'Read b.txt.')
  await hostile(100, true)
  await bin.waitFor('the second prompt', () => bin.responsesTo('v-prompt-2').length > 0)
  run.valid.final = await bin.request('v-final', 'initialize', { protocolVersion: 1 })
  const answers = run.frames.flatMap((f) => (f.expect.kind === 'answer' ? [f.expect.id] : []))
  await bin.waitFor('a response to every hostile request', () =>
    answers.every((id) => bin.responsesTo(id).length > 0),
  )
  run.valid.prompt1 = bin.responsesTo('v-prompt-1')[0] as Message
  run.valid.prompt2 = bin.responsesTo('v-prompt-2')[0] as Message
  run.aliveBeforeClose = bin.child.exitCode === null && bin.child.signalCode === null
  bin.child.stdin.end()
  run.exitCode = await bin.exited
  for (const name of ['a.txt', 'b.txt'])
    run.files[name] = await readFile(join(workspace, name), 'utf8')
}

beforeAll(() => ensureBuilt(), 240_000)

beforeAll(async () => {
  console.log(`acp-agent hostile frames seed ${SEED} (set DSH_FRAMES_SEED to replay)`)
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'dsh-acp-agent-hostile-')))
  await writeFile(join(workspace, 'a.txt'), 'alpha\nbeta\n')
  const script = join(workspace, '.script.json')
  await writeFile(script, JSON.stringify(SCRIPT))
  // The valid traffic writes and edits: full access on purpose, no client here answers questions.
  bin = new BinProcess(['--script', script, '--mode', 'full-access'], workspace)
  try {
    await play()
  } finally {
    if (bin.child.exitCode === null) bin.child.kill()
  }
}, 180_000)

afterAll(async () => {
  if (workspace) await rm(workspace, { recursive: true, force: true })
})

const keyOf = (id: unknown) => JSON.stringify(id)

describe('hostile frames over stdio', () => {
  it('sends 1,000 hostile frames, some of several MB', () => {
    expect(run.frames).toHaveLength(1000)
    expect(run.frames.filter((f) => f.bytes.length > MB).length).toBeGreaterThanOrEqual(3)
  })

  it('answers every addressed request exactly once with the expected code', () => {
    const problems: string[] = []
    for (const frame of run.frames) {
      if (frame.expect.kind !== 'answer') continue
      const responses = bin.responsesTo(frame.expect.id)
      if (responses.length !== 1) {
        problems.push(
          `${frame.label} (id ${keyOf(frame.expect.id)}): ${responses.length} responses`,
        )
        continue
      }
      const code = responses[0]?.error?.code ?? 'result'
      if (code !== frame.expect.code)
        problems.push(`${frame.label} (id ${keyOf(frame.expect.id)}): got ${code}`)
    }
    expect(problems.slice(0, 10), `seed ${SEED}`).toEqual([])
  })

  it('answers each frame it cannot address with one id-null error and stays silent for the rest', () => {
    const nulls = bin.messages.filter((m) => m.method === undefined && m.id === null)
    const counted = (code: number) => nulls.filter((m) => m.error?.code === code).length
    const expected = (code: number) =>
      run.frames.filter((f) => f.expect.kind === 'null' && f.expect.code === code).length
    expect(nulls.every((m) => m.error !== undefined)).toBe(true)
    expect({ parse: counted(-32700), invalid: counted(-32600), all: nulls.length }).toEqual({
      parse: expected(-32700),
      invalid: expected(-32600),
      all: expected(-32700) + expected(-32600),
    })
    const asked = new Set([
      ...run.frames.flatMap((f) => (f.expect.kind === 'answer' ? [keyOf(f.expect.id)] : [])),
      ...['v-init', 'v-new', 'v-prompt-1', 'v-prompt-2', 'v-final'].map(keyOf),
    ])
    const stray = bin.messages.filter(
      (m) => m.method === undefined && m.id !== null && !asked.has(keyOf(m.id)),
    )
    expect(stray.map((m) => keyOf(m.id)).slice(0, 10)).toEqual([])
  })

  it('completes the valid traffic: initialize, session/new and both prompts', () => {
    expect(run.valid.init?.result?.protocolVersion).toBe(1)
    expect(run.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    expect(run.valid.prompt1?.result).toEqual({ stopReason: 'end_turn' })
    expect(run.valid.prompt2?.result).toEqual({ stopReason: 'end_turn' })
    expect(run.files).toEqual({ 'a.txt': 'ALPHA\nbeta\n', 'b.txt': 'new\n' })
  })

  it('streams the turns as updates of the one real session only', () => {
    const notes = bin.messages.filter((m) => m.method !== undefined)
    expect(
      notes.every((m) => m.method === 'session/update' && m.params?.sessionId === run.sessionId),
    ).toBe(true)
    const finished = notes
      .map((m) => m.params?.update)
      .filter(
        (u) =>
          u?.sessionUpdate === 'tool_call_update' &&
          u.status !== undefined &&
          u.status !== 'in_progress',
      )
      .map((u) => `${u?.toolCallId}:${u?.status}`)
    expect(finished).toEqual(['r1:completed', 'e1:completed', 'w1:completed', 'r2:completed'])
    const text = notes
      .map((m) => m.params?.update)
      .filter((u) => u?.sessionUpdate === 'agent_message_chunk')
      .map((u) => u?.content?.text ?? '')
      .join('')
    expect(text).toBe('Reading.Done.Second done.')
  })

  it('keeps serving to the end and exits cleanly when stdin closes', () => {
    expect(run.valid.final?.result?.protocolVersion).toBe(1)
    expect(run.aliveBeforeClose).toBe(true)
    expect(run.exitCode).toBe(0)
    expect(bin.stderr).not.toMatch(/uncaught exception|unhandled rejection|fatal/)
  })

  it('writes only schema-valid json-rpc lines to stdout', () => {
    const methods = new Map<unknown, string>([
      ['v-init', 'initialize'],
      ['v-new', 'session/new'],
      ['v-prompt-1', 'session/prompt'],
      ['v-prompt-2', 'session/prompt'],
      ['v-final', 'initialize'],
    ])
    for (const frame of run.frames)
      if (frame.expect.kind === 'answer') methods.set(frame.expect.id, frame.expect.method)
    // The requests that draw a result, then every line the bin wrote: each response is checked
    // against the result of the method its id was sent with.
    const recorder = new FrameRecorder()
    for (const [id, method] of methods) recorder.tap('client', `${rpc({ id, method })}\n`)
    for (const line of bin.lines) recorder.tap('agent', `${line}\n`)
    expect(bin.lines.filter((line) => line.trim() === '')).toEqual([])
    expect(() => assertAgentFramesValid(recorder.frames)).not.toThrow()
  })
})
