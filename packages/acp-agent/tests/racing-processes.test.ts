// One winner across processes, over the BUILT bins' real stdio with the SDK's own client: two
// `dsh-acp` processes on one workspace, in `ask` mode, each read the same file and change it
// (edit against edit, edit against write, write against write), and both questions are answered
// in the same tick. Every round exactly one change lands and the other fails FS_STALE_VERSION;
// the file is always the winner's change of what both read (no lost update); no lock is left.
// The file lies beside the workspace, so that each read asks too: the test holds the two
// processes in step by holding their answers, round after round.
import { readdirSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RequestPermissionResponse, SessionUpdate } from '@agentclientprotocol/sdk'
import { choose } from '@deepseek-ai/dsh-acp-testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './helpers/build'
import { openLiveSession } from './helpers/live-session'
import type { LiveSession } from './helpers/live-session'

const ROUNDS = 200
const ROUNDS_PER_PROMPT = 40
const BINS = ['a', 'b'] as const
type Bin = (typeof BINS)[number]
/** Each round's pair of changes, in turn: a's, then b's. */
const PAIRS = [
  ['edit', 'edit'],
  ['edit', 'write'],
  ['write', 'edit'],
  ['write', 'write'],
] as const
const LINE: Record<Bin, string> = { a: 'alpha', b: 'beta' }

let root = ''
beforeAll(async () => {
  ensureBuilt()
  root = await realpath(await mkdtemp(join(tmpdir(), 'dsh-race-')))
}, 420_000)
afterAll(() => rm(root, { recursive: true, force: true }))

const changeOf = (bin: Bin, round: number) => PAIRS[round % PAIRS.length]![bin === 'a' ? 0 : 1]
const writtenText = (bin: Bin, round: number) =>
  `alpha\nbeta\nwritten by ${bin} in round ${round}\n`

/** What `bin`'s change of `round` makes of `text`. */
function applied(bin: Bin, round: number, text: string): string {
  if (changeOf(bin, round) === 'write') return writtenText(bin, round)
  return text.replace(LINE[bin], `${LINE[bin]}.`)
}

function script(bin: Bin, file: string) {
  const turns = []
  for (let round = 0; round < ROUNDS; round++) {
    const read = { id: `${bin}-read-${round}`, name: 'read', arguments: { file_path: file } }
    const id = `${bin}-change-${round}`
    const change =
      changeOf(bin, round) === 'edit'
        ? {
            id,
            name: 'edit',
            arguments: { file_path: file, old_string: LINE[bin], new_string: `${LINE[bin]}.` },
          }
        : { id, name: 'write', arguments: { file_path: file, content: writtenText(bin, round) } }
    turns.push({ toolCalls: [read, change] })
    if ((round + 1) % ROUNDS_PER_PROMPT === 0) turns.push({ text: `Round ${round} done.` })
  }
  return { turns }
}

/** Holds each bin's question until the other bin asks the same one, then answers both at once. */
class Lockstep {
  private readonly waiting = new Map<string, () => void>()

  constructor(private readonly onBoth: (key: string) => void) {}

  arrive(key: string): Promise<void> {
    const other = this.waiting.get(key)
    if (other === undefined) return new Promise((resolve) => this.waiting.set(key, resolve))
    this.waiting.delete(key)
    this.onBoth(key)
    other()
    return Promise.resolve()
  }
}

type ToolCard = Extract<SessionUpdate, { sessionUpdate: 'tool_call' | 'tool_call_update' }>

const cardOf =
  (toolCallId: string) =>
  (update: SessionUpdate): update is ToolCard =>
    (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') &&
    update.toolCallId === toolCallId

function outcome(updates: readonly SessionUpdate[], toolCallId: string): string {
  const update = updates.findLast(cardOf(toolCallId))
  if (update === undefined) return 'missing'
  if (update.status !== 'failed') return String(update.status)
  return String((update.rawOutput as { error?: { code?: unknown } } | undefined)?.error?.code)
}

describe('two processes changing one file', () => {
  it(`exactly one change lands in each of ${ROUNDS} rounds, no update is lost and no lock is left`, async () => {
    const workspace = join(root, 'work')
    const shared = join(root, 'shared')
    const file = join(shared, 'c.txt')
    await Promise.all([mkdir(workspace), mkdir(shared)])
    await writeFile(file, 'alpha\nbeta\n')
    const sessions = new Map<Bin, LiveSession>()
    const seen: string[] = []
    const problems: string[] = []
    const wins: Record<Bin, number> = { a: 0, b: 0 }
    /** Checks round `round` once both bins are past it: one winner, the winner's change of `seen`. */
    const judge = (round: number) => {
      const results = BINS.map((bin) =>
        outcome(sessions.get(bin)!.updates, `${bin}-change-${round}`),
      )
      const winners = BINS.filter((_, index) => results[index] === 'completed')
      const losers = results.filter((result) => result === 'FS_STALE_VERSION')
      if (winners.length !== 1 || losers.length !== 1) {
        problems.push(`round ${round}: ${results.join(' / ')}`)
        return
      }
      const winner = winners[0]!
      wins[winner] += 1
      const text = readFileSync(file, 'utf8')
      if (text !== applied(winner, round, seen[round]!)) {
        problems.push(`round ${round}: ${winner} won, but the file holds ${JSON.stringify(text)}`)
      }
    }
    const lockstep = new Lockstep((key) => {
      const [kind, round] = key.split(':') as [string, string]
      // Both have read and both ask to change: this is the text both changes start from.
      if (kind === 'change') seen[Number(round)] = readFileSync(file, 'utf8')
      else if (Number(round) > 0) judge(Number(round) - 1)
    })
    for (const bin of BINS) {
      const session = await openLiveSession({
        script: script(bin, file),
        workspace,
        home: await realpath(await mkdtemp(join(root, `home-${bin}-`))),
        answer: async (request): Promise<RequestPermissionResponse> => {
          const [, kind, round] = request.toolCall.toolCallId.split('-')
          await lockstep.arrive(`${kind}:${round}`)
          return choose('allow_once')(request)
        },
      })
      sessions.set(bin, session)
    }
    const started = Date.now()
    await Promise.all(
      BINS.map(async (bin) => {
        for (let prompt = 0; prompt < ROUNDS / ROUNDS_PER_PROMPT; prompt++) {
          await sessions.get(bin)!.prompt('change the file')
        }
      }),
    )
    judge(ROUNDS - 1)
    const seconds = (Date.now() - started) / 1000
    for (const session of sessions.values()) expect(await session.close()).toBe(0)
    expect(problems).toEqual([])
    expect(wins.a + wins.b).toBe(ROUNDS)
    expect(readdirSync(shared)).toEqual(['c.txt'])
    expect(await readdir(workspace)).toEqual([])
    console.log(
      `racing processes: ${ROUNDS} rounds of two dsh-acp processes answered in one tick, one winner each (a ${wins.a}, b ${wins.b}), the other FS_STALE_VERSION, no lost update, no lock left; ${seconds.toFixed(1)} s`,
    )
  }, 180_000)
})
