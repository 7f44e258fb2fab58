// Two agents (two sessions) race guarded writes and edits on one file through the real tools
// (LocalFileSystem, FsPolicy, ToolFs) for 300 seeded rounds. Each round the agents usually
// read, then both mutate at once while a third session and a raw disk reader watch. The test
// keeps a model of what each session last observed: a mutation may win only from the current
// version, at most one wins per round, every loser is refused with FS_STALE_VERSION or
// FS_NOT_OBSERVED, the file then holds exactly the winner's change, and no reader ever sees
// anything but a whole content that was really written. DSH_RACE_SEED=<n> replays a run.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Agent } from '../src'
import { createHost } from './helpers/host'
import type { Host } from './helpers/host'
import { seededRandom } from '@deepseek-ai/dsh-fs/testing'

const SEED = Number.parseInt(process.env.DSH_RACE_SEED ?? '', 10) || 7_300
const ROUNDS = 300
const FILE = 'shared.txt'

/** A whole content: a header line naming its id, then body lines that name the id too. */
function contentOf(id: string, lines: number): string {
  const body = Array.from({ length: lines }, (_, k) => `${id} line ${k + 1}`)
  return [`version: ${id}`, ...body, ''].join('\n')
}

/** The header line names the content's state; an edit replaces only that line. */
function headerOf(content: string): string {
  return content.slice(0, content.indexOf('\n'))
}

/** The `N: text` lines a read shows, and the total it states when it states one. */
function shownLines(text: string): { lines: string[]; total?: number } {
  const lines: string[] = []
  for (const match of text.matchAll(/^(\d+): (.*)$/gm)) {
    if (Number(match[1]) !== lines.length + 1) throw new Error(`line numbers skip in:\n${text}`)
    lines.push(match[2] ?? '')
  }
  const total = /total (\d+) lines?\)|of (\d+)\. Use offset/.exec(text)
  return { lines, total: total ? Number(total[1] ?? total[2]) : undefined }
}

/** True when a read's output shows `content` from its first line, whole as far as it goes. */
function showsContent(text: string, content: string): boolean {
  const { lines, total } = shownLines(text)
  const expected = content.split('\n').slice(0, -1)
  if (total !== undefined && total !== expected.length) return false
  return lines.length > 0 && lines.every((line, k) => line === expected[k])
}

interface Racer {
  name: string
  agent: Agent
  /** The state id this session last observed (read, or its own success), per the policy. */
  observed?: string
  /** The header line it last saw, which its edit replaces. */
  header?: string
}

type ProblemKind = 'outcome' | 'content' | 'torn'

interface Problem {
  kind: ProblemKind
  text: string
}

let host: Host
const log = { rounds: 0, problems: [] as Problem[], codes: new Map<string, number>(), wins: 0 }

async function race(): Promise<void> {
  const rand = seededRandom(SEED)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T
  const path = join(host.dir, FILE)
  let calls = 0
  const run = (agent: Agent, name: string, args: unknown): Promise<ToolExecutionResult> =>
    host.ctx.tools.execute({
      callId: `race-${++calls}`,
      name,
      arguments: args,
      session: agent.session,
      agent,
    })
  const ticks = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve))
  }

  let state = { id: 'r0', content: contentOf('r0', 40) }
  await writeFile(path, state.content)
  const racers: Racer[] = ['A', 'B'].map((name) => ({
    name,
    agent: host.agents.create({ cwd: host.dir }),
  }))
  const watcher = host.agents.create({ cwd: host.dir })

  for (let round = 1; round <= ROUNDS; round++) {
    const problem = (kind: ProblemKind, text: string) =>
      log.problems.push({ kind, text: `seed ${SEED}, round ${round}: ${text}` })
    const before = state.content
    // Now and then a fresh session that never read the file takes B's place.
    const players: Racer[] =
      rand() < 0.08
        ? [racers[0] as Racer, { name: 'C', agent: host.agents.create({ cwd: host.dir }) }]
        : [...racers]

    // Read phase: each player usually reads; both reads must show exactly the current content.
    await Promise.all(
      players.map(async (player) => {
        if (player.name === 'C' || rand() < 0.1) return
        const result = await run(player.agent, 'read', { file_path: FILE })
        const text = result.content.map((block) => block.text).join('')
        if (result.isError || !showsContent(text, state.content)) {
          problem(
            'content',
            `${player.name}'s read did not show the current content: ${text.slice(0, 300)}`,
          )
        }
        player.observed = state.id
        player.header = headerOf(state.content)
      }),
    )

    // Mutation phase: both at once, with a tool read by a third session and a raw disk read.
    const attempts = players.map((player) => {
      const id = `r${round}${player.name}`
      const op = pick(['write', 'edit'] as const)
      const header = player.header ?? `version: ${state.id}`
      const planned =
        op === 'write'
          ? { id, content: contentOf(id, 20 + Math.floor(rand() * 300)) }
          : { id, content: before.replace(header, `version: ${id}`) }
      const args =
        op === 'write'
          ? { file_path: FILE, content: planned.content }
          : { file_path: FILE, old_string: header, new_string: `version: ${id}` }
      const delay = Math.floor(rand() * 3)
      return { player, op, planned, delay, args }
    })
    const [results, watched, raw] = await Promise.all([
      Promise.all(
        attempts.map(async ({ player, op, args, delay }) => {
          await ticks(delay)
          return run(player.agent, op, args)
        }),
      ),
      ticks(Math.floor(rand() * 3)).then(() => run(watcher, 'read', { file_path: FILE })),
      ticks(Math.floor(rand() * 3)).then(() => readFile(path, 'utf8')),
    ])

    // Judge the round against the model of what each session had observed.
    const winners = attempts.filter((_, k) => !results[k]?.isError)
    if (winners.length > 1) problem('outcome', `${winners.length} writers won from one version`)
    attempts.forEach(({ player, op }, k) => {
      const result = results[k] as ToolExecutionResult
      const code = result.error?.code ?? 'ok'
      log.codes.set(`${op}:${code}`, (log.codes.get(`${op}:${code}`) ?? 0) + 1)
      const fresh = player.observed === state.id
      if (!result.isError) {
        if (!fresh)
          problem('outcome', `${player.name}'s ${op} won from a version it had not observed`)
        return
      }
      const allowed = player.observed === undefined ? 'FS_NOT_OBSERVED' : 'FS_STALE_VERSION'
      if (code !== allowed) {
        const text = result.content.map((block) => block.text).join('')
        problem('outcome', `${player.name}'s ${op} lost with ${code}, not ${allowed}: ${text}`)
      }
    })
    const freshPlayers = attempts.filter(({ player }) => player.observed === state.id)
    if (freshPlayers.length > 0 && winners.length === 0) {
      problem('outcome', 'no writer won although one had observed the current version')
    }
    const winner = winners[0]
    if (winner) {
      log.wins++
      state = { id: winner.planned.id, content: winner.planned.content }
      winner.player.observed = state.id
      winner.player.header = headerOf(state.content)
    }

    const onDisk = await readFile(path, 'utf8')
    if (onDisk !== state.content) {
      problem('content', `the file holds ${headerOf(onDisk)}, expected ${headerOf(state.content)}`)
    }
    if (raw !== before && raw !== state.content) {
      problem('torn', `a raw read saw a torn or unknown content: ${headerOf(raw)}`)
    }
    const watchedText = watched.content.map((block) => block.text).join('')
    if (
      watched.isError ||
      !(showsContent(watchedText, before) || showsContent(watchedText, state.content))
    ) {
      problem(
        'torn',
        `the watcher's read showed neither the old nor the new content: ${watchedText.slice(0, 300)}`,
      )
    }
    log.rounds++
  }
}

beforeAll(async () => {
  console.log(`agent race seed ${SEED} (set DSH_RACE_SEED to replay)`)
  host = await createHost({ fs: true })
  await race()
}, 240_000)

afterAll(async () => {
  await host?.cleanup()
})

const problemsOf = (kind: ProblemKind) =>
  log.problems
    .filter((p) => p.kind === kind)
    .map((p) => p.text)
    .slice(0, 10)

describe('two sessions racing guarded writes and edits on one file', () => {
  it('plays every round', () => {
    expect(log.rounds).toBe(ROUNDS)
  })

  it('lets at most one writer win a round and refuses every loser as stale or unobserved', () => {
    expect(problemsOf('outcome')).toEqual([])
  })

  it('loses no update: every read and the file after each round hold exactly the last winning change', () => {
    expect(problemsOf('content')).toEqual([])
  })

  it('never shows a torn content to a reader racing the writers', () => {
    expect(problemsOf('torn')).toEqual([])
  })

  it('exercises wins, stale refusals and unobserved refusals of both tools', () => {
    const seen = (key: string) => log.codes.get(key) ?? 0
    const summary = `seed ${SEED}: ${JSON.stringify([...log.codes])}`
    expect(log.wins, summary).toBeGreaterThan(ROUNDS / 2)
    for (const key of ['write:ok', 'edit:ok', 'write:FS_STALE_VERSION', 'edit:FS_STALE_VERSION']) {
      expect(seen(key), `${key} (${summary})`).toBeGreaterThan(5)
    }
    expect(seen('write:FS_NOT_OBSERVED') + seen('edit:FS_NOT_OBSERVED'), summary).toBeGreaterThan(0)
  })
})
