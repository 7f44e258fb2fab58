import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seededRandom } from '@deepseek-ai/dsh-fs/testing'
import type { StoredSessionEvent } from '@deepseek-ai/dsh-agent'
import { describe, expect, inject, it, onTestFinished } from 'vitest'
import { FileSessionStore } from '../src/index'
import { startDriver } from './helpers/child/spawn'
import { sessionHeader } from './helpers/store'

const ROUNDS = 50

function crashSeed(): number {
  const replay = process.env.DSH_CRASH_SEED
  return replay === undefined ? Math.floor(Math.random() * 2 ** 32) : Number(replay)
}

/** The numbers a driver printed on whole lines after its "ready" line. */
function printedNumbers(output: string): number[] {
  const lines = output.split('\n').slice(1, -1)
  return lines.map(Number)
}

/** Where the log stops being 0, 1, 2, … (user messages), or `undefined` when it never does. */
function firstGap(events: readonly StoredSessionEvent[]): number | undefined {
  const index = events.findIndex(
    (event, position) => event.type !== 'user/message' || event.text !== String(position),
  )
  return index === -1 ? undefined : index
}

describe('crash loop', () => {
  it('every SIGKILL of an appending writer leaves a loadable log of all printed numbers in order', async () => {
    const seed = crashSeed()
    console.log(
      `session-store crash loop: seed ${seed} (DSH_CRASH_SEED=${seed} replays the delays)`,
    )
    const random = seededRandom(seed)
    const parent = await mkdtemp(join(tmpdir(), 'dsh-store-crash-'))
    onTestFinished(() => rm(parent, { recursive: true, force: true }))
    const dir = join(parent, 'sessions')
    const warnings: string[] = []
    const store = new FileSessionStore({ dir, warn: (message) => warnings.push(message) })
    store.create(sessionHeader('crash')).close()

    let stored = 0
    let torn = 0
    for (let round = 1; round <= ROUNDS; round++) {
      const delay = 5 + Math.floor(random() * 56)
      const writer = await startDriver(inject('driver'), ['append', dir, 'crash'])
      await new Promise((resolve) => setTimeout(resolve, delay))
      writer.child.kill('SIGKILL')
      await writer.closed
      const output = writer.output()
      expect(output.split('\n')[0], `round ${round} (seed ${seed})`).toBe(`ready ${stored}`)
      const printed = printedNumbers(output)
      const lastPrinted = printed.at(-1) ?? stored - 1

      const before = warnings.length
      const { events, writer: reader } = store.open('crash')
      reader.close()
      const recovered = warnings.slice(before)
      if (recovered.some((message) => message.includes('torn last line'))) torn++
      const context = `round ${round} (seed ${seed}, killed after ${delay} ms, last printed ${lastPrinted})`
      expect(firstGap(events), context).toBeUndefined()
      expect(events.length - 1, context).toBeGreaterThanOrEqual(lastPrinted)
      expect(events.length - 1, context).toBeLessThanOrEqual(lastPrinted + 1)
      // The SIGKILLed child never released its lock: this open took it over.
      expect(recovered, context).toContainEqual(
        expect.stringContaining(`process ${writer.child.pid} left it`),
      )
      stored = events.length
    }
    console.log(
      `session-store crash loop: ${ROUNDS} SIGKILLs, ${stored} events stored, ${torn} torn last lines dropped`,
    )
  }, 60_000)
})
