// Several tasks in one response, with the real OpenAI-compatible model (llm-openai) against a
// chat-completions server on 127.0.0.1 that tells the parent and the delegates apart by their
// system prompts. Explorer tasks run side by side, at most eight at once; general tasks too, at
// most four at once (the delegates' first answers are held until that many have asked: one
// after another, this would hang), the others waiting their turn. Two general delegates that
// edit the same file at once: the second edit is caught as stale (it read the file before the
// first landed), is told so, reads again and makes its change; both changes land. In `ask` the
// same edits are each asked first. Every frame schema-valid.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isDelegate, nonSystem, taskOptions, toolResults } from './helpers/delegates'
import { useAcpHarness } from './helpers/harness'
import { startModelServer } from './helpers/model-server'
import type { Answerer, ModelAnswer, ModelServer, WireRequest } from './helpers/model-server'

const makeHarness = useAcpHarness()

const servers: ModelServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

/** The delegate's name: its prompt reads `Task <name>: …`. */
const nameOf = (request: WireRequest) =>
  nonSystem(request)[0]!.content!.slice('Task '.length, 'Task A'.length)

/**
 * A server whose parent asks, in one response, for a task of `type` per name (prompt
 * `Task <name>: <prompt>`), then ends once it has the reports; `delegate` answers the
 * delegates.
 */
async function serverFor(
  type: string,
  names: readonly string[],
  prompt: string,
  delegate: Answerer,
): Promise<ModelServer> {
  const server = await startModelServer((request, gone): ModelAnswer | Promise<ModelAnswer> => {
    if (isDelegate(request)) return delegate(request, gone)
    if (toolResults(request).length > 0) return { text: 'All reported.' }
    const calls = names.map((name) => ({
      id: `call_${name}`,
      name: 'task',
      arguments: {
        description: `work ${name}`,
        prompt: `Task ${name}: ${prompt}`,
        agent_type: type,
      },
    }))
    return { calls }
  })
  servers.push(server)
  return server
}

/**
 * One response with a task per name, of `type`; each delegate asks twice (a read, then its
 * report). `held`: the delegates' first answers wait until that many delegates have asked.
 * Returns the order the server saw the delegates' requests in (`A0`: A's first).
 */
async function tasksInOneResponse(type: string, names: string[], held = 0) {
  const order: string[] = []
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  const server = await serverFor(type, names, 'read notes.md.', async (request) => {
    const name = nameOf(request)
    const results = toolResults(request)
    order.push(`${name}${results.length}`)
    if (results.length > 0) return { text: `Report ${name}.` }
    if (order.length === held) release()
    if (held > 0) await released
    const read = { id: `call_read_${name}`, name: 'read', arguments: { file_path: 'notes.md' } }
    return { calls: [read] }
  })
  const harness = await makeHarness(taskOptions(server))
  await writeFile(join(harness.workspace, 'notes.md'), 'notes\n')
  const sessionId = await harness.newSession()
  expect((await harness.prompt(sessionId, 'Look around.')).stopReason).toBe('end_turn')
  const reports = toolResults(server.requests.at(-1)!)
  expect(reports).toEqual(
    names.map((name) => ({
      role: 'tool',
      tool_call_id: `call_${name}`,
      content: `Report ${name}.`,
    })),
  )
  return order
}

describe('tasks in one response', () => {
  it('two explorer tasks run side by side', async () => {
    const order = await tasksInOneResponse('explorer', ['A', 'B'], 2)
    expect(order.slice(0, 2).sort()).toEqual(['A0', 'B0'])
    expect(order.slice(2).sort()).toEqual(['A1', 'B1'])
  })

  it('nine explorer tasks: eight at once, the ninth when one is done', async () => {
    const names = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I']
    const order = await tasksInOneResponse('explorer', names, 8)
    expect(order.slice(0, 8).sort()).toEqual(names.slice(0, 8).map((name) => `${name}0`))
    const ninth = order.indexOf('I0')
    expect(order.slice(8, ninth).some((entry) => entry.endsWith('1'))).toBe(true)
  })

  it('two general tasks run side by side', async () => {
    const order = await tasksInOneResponse('general', ['A', 'B'], 2)
    expect(order.slice(0, 2).sort()).toEqual(['A0', 'B0'])
    expect(order.slice(2).sort()).toEqual(['A1', 'B1'])
  })

  it('five general tasks: four at once, the fifth when one is done', async () => {
    const names = ['A', 'B', 'C', 'D', 'E']
    const order = await tasksInOneResponse('general', names, 4)
    expect(order.slice(0, 4).sort()).toEqual(['A0', 'B0', 'C0', 'D0'])
    const fifth = order.indexOf('E0')
    expect(order.slice(4, fifth).some((entry) => entry.endsWith('1'))).toBe(true)
  })
})

const STALE = 'has changed since it was last read'

/**
 * Two general delegates, A and B, each read notes.md (`alpha`, `beta`) and then, once both
 * have read it, edit their own word to upper case at the same time; a delegate told its edit
 * is stale reads again and edits again. Returns what each delegate's edits gave back and the
 * file's end.
 */
async function twoEditsOfOneFile(mode: 'auto-edit' | 'ask') {
  const word = { A: 'alpha', B: 'beta' } as Record<string, string>
  const edits: Record<string, string[]> = { A: [], B: [] }
  let bothRead = () => {}
  const read = new Promise<void>((resolve) => (bothRead = resolve))
  let readers = 0
  const server = await serverFor(
    'general',
    ['A', 'B'],
    'upper-case your word.',
    async (request) => {
      const name = nameOf(request)
      const results = toolResults(request)
      const last = results.at(-1)?.content ?? ''
      const call = (kind: string, args: Record<string, unknown>) => ({
        calls: [{ id: `call_${kind}${results.length}_${name}`, name: kind, arguments: args }],
      })
      const edit = call('edit', {
        file_path: 'notes.md',
        old_string: word[name],
        new_string: word[name]!.toUpperCase(),
      })
      if (results.length === 0) return call('read', { file_path: 'notes.md' })
      if (results.length === 1) {
        readers += 1
        if (readers === 2) bothRead()
        await read
        return edit
      }
      // Results 2 and 4 answer edits; 3 the read again.
      if (results.length !== 3) edits[name]!.push(last)
      if (results.length === 2 && last.includes(STALE))
        return call('read', { file_path: 'notes.md' })
      if (results.length === 3) return edit
      return { text: `Report ${name}.` }
    },
  )
  const harness = await makeHarness({ ...taskOptions(server), mode })
  const file = join(harness.workspace, 'notes.md')
  await writeFile(file, 'alpha\nbeta\n')
  const sessionId = await harness.newSession()
  expect((await harness.prompt(sessionId, 'Upper-case both words.')).stopReason).toBe('end_turn')
  return { edits, text: await readFile(file, 'utf8'), asked: harness.permissionRequests.length }
}

describe('two general delegates editing one file at once', () => {
  for (const mode of ['auto-edit', 'ask'] as const) {
    it(`${mode}: the second edit is caught as stale, read again and made; both changes land`, async () => {
      const { edits, text, asked } = await twoEditsOfOneFile(mode)
      expect(text).toBe('ALPHA\nBETA\n')
      // One delegate's first edit landed; the other's was refused as stale, then made.
      const stale = Object.entries(edits).filter(([, results]) => results[0]!.includes(STALE))
      expect(stale).toHaveLength(1)
      const [name, results] = stale[0]!
      expect(results).toHaveLength(2)
      expect(results[1]).not.toContain(STALE)
      const other = edits[name === 'A' ? 'B' : 'A']!
      expect(other).toHaveLength(1)
      expect(other[0]).not.toContain(STALE)
      // In ask each of the three edits was asked first; in auto-edit none.
      expect(asked).toBe(mode === 'ask' ? 3 : 0)
    })
  }
})
