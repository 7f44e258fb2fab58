// A 30 MB write over the BUILT bin's real stdio, in `auto-edit`: its card reaches the client
// before the file is renamed into place, its arguments go out clipped (the content's head and
// how much more there was), all its frames together stay under 1 MiB, the stored session log
// holds the clipped form, and a new process loading the session replays the clipped card.
import { existsSync } from 'node:fs'
import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as acp from '@agentclientprotocol/sdk'
import { HarnessClient, assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import type { AcpFrame } from '@deepseek-ai/dsh-acp-testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { tempDirs } from './helpers/temp-dirs'
import { QUIET_MODEL, startBin } from './helpers/spawn-bin'

const tempDir = tempDirs('dsh-big-write')

beforeAll(() => ensureBuilt(), 420_000)
/** The longest string a card or the log keeps whole (the tools package's LONG_STRING_CHARS). */
const LONG_STRING_CHARS = 64 * 1024
const LINE = `${'x'.repeat(99)}\n`
const CONTENT = LINE.repeat((30 * 1024 * 1024) / LINE.length)
const CLIPPED = /^x{99}\n[\s\S]*… \((\d+) more characters\)$/

/** The bytes of every frame the bin wrote about card `id`. */
function cardBytes(frames: readonly AcpFrame[], id: string): number {
  return frames
    .filter((frame) => frame.from === 'agent' && frame.method === 'session/update')
    .filter((frame) => cardIdOf(frame.message) === id)
    .reduce((sum, frame) => sum + Buffer.byteLength(frame.text) + 1, 0)
}

function cardIdOf(message: unknown): unknown {
  const params = (message as { params?: { update?: { toolCallId?: unknown } } }).params
  return params?.update?.toolCallId
}

function rawContentOf(update: acp.SessionUpdate | undefined): string {
  const raw = update && 'rawInput' in update ? update.rawInput : undefined
  return (raw as { content?: string } | undefined)?.content ?? ''
}

describe('a 30 MB write in auto-edit', () => {
  let workspace = ''
  let store = ''
  let sessionId = ''
  let stopReason = ''
  let fileAtCard: boolean | undefined
  let updates: acp.SessionUpdate[] = []
  let frames: AcpFrame[] = []

  beforeAll(async () => {
    workspace = await tempDir('work')
    store = await tempDir('store')
    const home = await tempDir('home')
    const write = { id: 'w1', name: 'write', arguments: { file_path: 'big.txt', content: CONTENT } }
    const script = { turns: [{ toolCalls: [write] }, { text: 'Written.' }] }
    await writeFile(join(home, 'script.json'), JSON.stringify(script))
    const args = ['--script', join(home, 'script.json'), '--sessions', store, '--mode', 'auto-edit']
    const bin = startBin(args, home)
    const client = new HarnessClient(bin.stream)
    const agent = client.connection.agent
    // Whether the file was in place when the card arrived, looked at as the card arrives.
    void client
      .waitForUpdate((n) => n.update.sessionUpdate === 'tool_call')
      .then(() => (fileAtCard = existsSync(join(workspace, 'big.txt'))))
    await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    sessionId = (await agent.request('session/new', { cwd: workspace, mcpServers: [] })).sessionId
    const response = await agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write the big file' }],
    })
    stopReason = response.stopReason
    updates = client.updates.map((n) => n.update)
    bin.child.stdin.end()
    expect(await bin.exited).toBe(0)
    frames = bin.frames
    assertAgentFramesValid(frames)
  }, 120_000)

  it('the card is on the wire before the file is renamed into place', async () => {
    expect(stopReason).toBe('end_turn')
    expect(fileAtCard).toBe(false)
    expect((await stat(join(workspace, 'big.txt'))).size).toBe(CONTENT.length)
  })

  it('its content goes out clipped and every frame of the card together is at most 1 MiB', () => {
    const opening = updates.find((u) => u.sessionUpdate === 'tool_call')
    const sent = rawContentOf(opening)
    expect(sent.length).toBeLessThanOrEqual(LONG_STRING_CHARS)
    const [, more = '0'] = CLIPPED.exec(sent) ?? []
    expect(sent.length - `… (${more} more characters)`.length + Number(more)).toBe(CONTENT.length)
    expect(updates.filter((u) => 'toolCallId' in u).map((u) => u.status)).toEqual([
      'in_progress',
      'completed',
    ])
    expect(cardBytes(frames, 'w1')).toBeLessThanOrEqual(1024 * 1024)
  })

  it('the stored session log holds the clipped call and stays small', async () => {
    const log = await readFile(join(store, `${sessionId}.jsonl`), 'utf8')
    expect(log.length).toBeLessThan(1024 * 1024)
    const call = log
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; arguments?: { content?: string } })
      .find((event) => event.type === 'tool/call')
    expect(call?.arguments?.content).toMatch(CLIPPED)
    const opening = updates.find((u) => u.sessionUpdate === 'tool_call')
    expect(call?.arguments?.content).toBe(rawContentOf(opening))
  })

  it('a new process loading the session replays the clipped card', async () => {
    const home = await tempDir('home')
    const bin = startBin([...QUIET_MODEL, '--sessions', store, '--mode', 'auto-edit'], home)
    const client = new HarnessClient(bin.stream)
    const agent = client.connection.agent
    await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    await agent.request('session/load', { sessionId, cwd: workspace, mcpServers: [] })
    const replayed = client.updates.map((n) => n.update).filter((u) => 'toolCallId' in u)
    // A replay shows the card once, as it ended.
    expect(replayed.map((u) => [u.sessionUpdate, u.status])).toEqual([['tool_call', 'completed']])
    const opening = updates.find((u) => u.sessionUpdate === 'tool_call')
    expect(rawContentOf(replayed[0])).toBe(rawContentOf(opening))
    expect(cardBytes(bin.frames, 'w1')).toBeLessThanOrEqual(1024 * 1024)
    bin.child.stdin.end()
    expect(await bin.exited).toBe(0)
    assertAgentFramesValid(bin.frames)
  }, 60_000)
})
