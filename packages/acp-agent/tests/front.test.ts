// The start's front in process: what it answers from the kept answers, what it leaves to the
// stack, and that the program gets every byte the client sent. A temp directory holds a stand-in
// bundle (the setup's size and time come from it) and the answers file beside it.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import type { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { runFront, WAIT_MS } from '../src/front'
import { setupOf, writeAnswers } from '../src/front-answers'
import type { FrontHandoff } from '../src/front-handoff'

const INIT_PARAMS = { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true } } }
const INIT_RESULT = { protocolVersion: 1, agentInfo: { name: 'dsh', version: '0.1.0' } }
const NEW_RESULT = { modes: { currentModeId: 'ask', availableModes: [] }, configOptions: [] }
const ARGV = ['--sessions', '/tmp/sessions']
const ENV = { DSH_API_KEY: 'sekrit-value', DEEPSEEK_MODEL_HINT: 'x', HOME: '/home/me' }

let dir: string
let bundle: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsh-front-'))
  bundle = join(dir, 'dsh-acp.cjs')
  await writeFile(bundle, '// the program')
})

afterEach(async () => {
  vi.useRealTimers()
  await rm(dir, { recursive: true, force: true })
})

const line = (message: object) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`
const initialize = (id = 1, params: object = INIT_PARAMS) =>
  line({ id, method: 'initialize', params })
const sessionNew = (params: object, id = 2) => line({ id, method: 'session/new', params })

/** Keeps answers for this setup, as a stack would after a start. */
function keep(argv = ARGV, env: Record<string, string> = ENV): void {
  const setup = setupOf(bundle, argv, env)
  const params = JSON.stringify(INIT_PARAMS)
  writeAnswers(bundle, setup, { initialize: { params, result: INIT_RESULT } })
  writeAnswers(bundle, setup, { sessionNew: NEW_RESULT })
}

interface Run {
  stdin: PassThrough
  written: () => Record<string, unknown>[]
  handedOff: Promise<FrontHandoff>
}

function front(argv = ARGV, env: Record<string, string> = ENV): Run {
  const stdin = new PassThrough()
  let out = ''
  let handOff: (handoff: FrontHandoff) => void = () => {}
  const handedOff = new Promise<FrontHandoff>((resolve) => (handOff = resolve))
  runFront({
    bundle,
    argv,
    env,
    stdin,
    stdout: { write: (text: string) => (out += text) },
    handOff: (handoff) => handOff(handoff),
  })
  const written = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as Record<string, unknown>)
  return { stdin, written, handedOff }
}

async function textOf(stream: Readable): Promise<string> {
  let text = ''
  for await (const chunk of stream) text += String(chunk)
  return text
}

describe('the start front', () => {
  it('with no answers kept it hands off at once and leaves the input alone', async () => {
    const run = front()
    const handoff = await run.handedOff
    expect(handoff.stdin).toBeUndefined()
    expect(handoff.answered).toEqual([])
    expect(run.stdin.listenerCount('data')).toBe(0)
    expect(run.written()).toEqual([])
  })

  it('answers the opening from the kept answers, gives the session id out once, and hands over every byte', async () => {
    keep()
    const run = front()
    const sent = initialize() + sessionNew({ cwd: dir, mcpServers: [] }) + 'next line\n'
    run.stdin.end(sent)
    const handoff = await run.handedOff
    const [init, opened] = run.written()
    expect(init).toEqual({ jsonrpc: '2.0', id: 1, result: INIT_RESULT })
    const { sessionId, ...rest } = opened!.result as Record<string, unknown>
    expect(opened!.id).toBe(2)
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/)
    expect(rest).toEqual(NEW_RESULT)
    expect(handoff.answered.map(({ id, method }) => [id, method])).toEqual([
      [1, 'initialize'],
      [2, 'session/new'],
    ])
    expect(handoff.sessionIds()).toBe(sessionId)
    expect(handoff.sessionIds()).toBeUndefined()
    expect(await textOf(handoff.stdin!)).toBe(sent)
  })

  it('a client whose initialize differs, other flags or another environment: the stack answers', async () => {
    keep()
    const other = front()
    other.stdin.write(initialize(1, { protocolVersion: 1, clientCapabilities: {} }))
    expect((await other.handedOff).answered).toEqual([])
    const flags = front(['--mode', 'auto-edit'])
    expect((await flags.handedOff).stdin).toBeUndefined()
    const env = front(ARGV, { ...ENV, DEEPSEEK_MODEL_HINT: 'y' })
    expect((await env.handedOff).stdin).toBeUndefined()
    // A secret's value is not part of the setup: another key is the same setup.
    const key = front(ARGV, { ...ENV, DSH_API_KEY: 'another' })
    key.stdin.write(initialize())
    expect((await key.handedOff).answered.map((a) => a.method)).toEqual(['initialize'])
    for (const run of [other, flags, env, key]) expect(run.written().length).toBeLessThan(2)
  })

  it.each([
    ['a relative cwd', { cwd: 'project', mcpServers: [] }],
    ['a cwd that does not exist', { cwd: '/no/such/dir', mcpServers: [] }],
    ['added directories', { cwd: '/tmp', additionalDirectories: ['/tmp'], mcpServers: [] }],
    ['no MCP servers list', { cwd: '/tmp' }],
    ['a malformed MCP server', { cwd: '/tmp', mcpServers: [{ name: 'x', command: 'y' }] }],
    [
      'an http server without headers',
      { cwd: '/tmp', mcpServers: [{ type: 'http', name: 'x', url: 'u' }] },
    ],
  ])('a session/new with %s is left to the stack', async (_label, params) => {
    keep()
    const run = front()
    run.stdin.write(initialize() + sessionNew(params))
    const handoff = await run.handedOff
    expect(handoff.answered.map((a) => a.method)).toEqual(['initialize'])
    expect(handoff.sessionIds()).toBeUndefined()
    expect(run.written()).toHaveLength(1)
  })

  it('answers a session/new with well-formed MCP servers', async () => {
    keep()
    const run = front()
    const servers = [
      { name: 'notes', command: '/bin/notes', args: ['-v'], env: [{ name: 'A', value: 'b' }] },
      { type: 'http', name: 'web', url: 'http://127.0.0.1:1/mcp', headers: [] },
    ]
    run.stdin.write(initialize() + sessionNew({ cwd: dir, mcpServers: servers }))
    expect((await run.handedOff).answered.map((a) => a.method)).toEqual([
      'initialize',
      'session/new',
    ])
  })

  it('a pause after initialize, a line that is not JSON, or the input ending hands off', async () => {
    keep()
    vi.useFakeTimers()
    const paused = front()
    paused.stdin.write(initialize())
    await vi.advanceTimersByTimeAsync(WAIT_MS - 1)
    let handed = false
    void paused.handedOff.then(() => (handed = true))
    await vi.advanceTimersByTimeAsync(0)
    expect(handed).toBe(false)
    await vi.advanceTimersByTimeAsync(2)
    expect((await paused.handedOff).answered).toHaveLength(1)
    // A session/new after the pause is the stack's.
    paused.stdin.write(sessionNew({ cwd: dir, mcpServers: [] }))
    expect(paused.written()).toHaveLength(1)
    vi.useRealTimers()

    const garbled = front()
    garbled.stdin.write('not json\n' + initialize())
    expect((await garbled.handedOff).answered).toEqual([])

    const ended = front()
    ended.stdin.end(initialize())
    const handoff = await ended.handedOff
    expect(handoff.answered).toHaveLength(1)
    expect(await textOf(handoff.stdin!)).toBe(initialize())
  })

  it('nothing at the start within the wait hands off, answering nothing', async () => {
    keep()
    vi.useFakeTimers()
    const run = front()
    await vi.advanceTimersByTimeAsync(WAIT_MS + 1)
    expect((await run.handedOff).answered).toEqual([])
  })

  it('the answers file keeps the stack answers per setup, and no secret', async () => {
    keep()
    const file = await readFile(`${bundle}.answers.json`, 'utf8')
    expect(file).not.toContain('sekrit-value')
    expect(JSON.parse(file).entries).toHaveLength(1)
    // Another setup goes first; the kept one stays.
    keep(['--mode', 'plan'])
    const entries = JSON.parse(await readFile(`${bundle}.answers.json`, 'utf8')).entries
    expect(entries).toHaveLength(2)
    expect(entries[0].setup).toBe(setupOf(bundle, ['--mode', 'plan'], ENV))
    // A changed bundle is another setup.
    await writeFile(bundle, '// the program, rebuilt')
    expect(setupOf(bundle, ARGV, ENV)).not.toBe(entries[1].setup)
  })

  it('a damaged answers file is no file', async () => {
    await writeFile(`${bundle}.answers.json`, '{"format":1,"entries":[{"setup":')
    const run = front()
    expect((await run.handedOff).stdin).toBeUndefined()
  })
})
