import { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { FsError } from '@deepseek-ai/dsh-fs'
import type { FsActor, FsSession, FsTarget } from '@deepseek-ai/dsh-fs'
import * as FsPolicy from '../src/index'
import { ObservedStateGate } from '../src/gate'

function target(key: string, displayPath = `/w/${key}`): FsTarget {
  return { inputPath: key, targetKey: key, displayPath }
}

/** A session of workspace /w. */
function session(id = 's1'): FsSession {
  return { header: { id, cwd: '/w' } }
}

/** A tool execution as tool-fs passes it: its session is the only part the policy reads. */
function actor(of: FsSession = session()): FsActor & { callId: string } {
  return { callId: 'c1', session: of }
}

function writeIntent(ctx: Context, file: FsTarget, who: FsActor) {
  return ctx.waterfall('fs/write-intent', file, who, () => undefined)
}

function editIntent(ctx: Context, file: FsTarget, who: FsActor) {
  return ctx.waterfall('fs/edit-intent', file, who, () => undefined)
}

async function withPolicy() {
  const ctx = new Context()
  const fiber = await ctx.plugin(FsPolicy)
  return { ctx, fiber }
}

const NOT_OBSERVED =
  '/w/a.txt has not been read in this session, so it cannot be edited yet. Read it first, then edit it.'

describe('the decision table', () => {
  it('a file the session observed is written only at the observed version', async () => {
    const { ctx } = await withPolicy()
    const me = actor(session('s1'))
    ctx.emit('fs/observed', target('a.txt'), 'v1', me)
    expect(writeIntent(ctx, target('a.txt'), me)).toEqual({
      kind: 'replaceIfVersion',
      version: 'v1',
    })
  })

  it('a file the session observed is edited only at the observed version', async () => {
    const { ctx } = await withPolicy()
    const me = actor(session('s1'))
    ctx.emit('fs/observed', target('a.txt'), 'v1', me)
    expect(editIntent(ctx, target('a.txt'), me)).toEqual({ version: 'v1' })
  })

  it('an unobserved write may only create the file', async () => {
    const { ctx } = await withPolicy()
    expect(writeIntent(ctx, target('a.txt'), actor())).toEqual({ kind: 'createIfAbsent' })
  })

  it('an unobserved edit is refused with FS_NOT_OBSERVED saying to read first', async () => {
    const { ctx } = await withPolicy()
    const attempt = () => editIntent(ctx, target('a.txt'), actor())
    expect(attempt).toThrow(FsError)
    expect(attempt).toThrow(
      expect.objectContaining({
        code: 'FS_NOT_OBSERVED',
        path: '/w/a.txt',
        details: { operation: 'edit' },
      }),
    )
    expect(attempt).toThrow(NOT_OBSERVED)
  })
})

describe('observations', () => {
  it('the latest observation of a file is the one required', async () => {
    const { ctx } = await withPolicy()
    const me = actor()
    ctx.emit('fs/observed', target('a.txt'), 'v1', me)
    ctx.emit('fs/observed', target('a.txt'), 'v2', me)
    expect(editIntent(ctx, target('a.txt'), me)).toEqual({ version: 'v2' })
  })

  it('a write or edit observed afterwards lets the next edit go without a re-read', async () => {
    const { ctx } = await withPolicy()
    const me = actor()
    expect(writeIntent(ctx, target('new.txt'), me)).toEqual({ kind: 'createIfAbsent' })
    ctx.emit('fs/observed', target('new.txt'), 'created', me)
    expect(editIntent(ctx, target('new.txt'), me)).toEqual({ version: 'created' })
    ctx.emit('fs/observed', target('new.txt'), 'edited', me)
    expect(editIntent(ctx, target('new.txt'), me)).toEqual({ version: 'edited' })
  })

  it('two paths with one target key share an observation', async () => {
    const { ctx } = await withPolicy()
    const me = actor()
    ctx.emit('fs/observed', target('key-1', '/w/link.txt'), 'v1', me)
    expect(editIntent(ctx, target('key-1', '/w/real.txt'), me)).toEqual({ version: 'v1' })
  })

  it('an observation of one file says nothing about another', async () => {
    const { ctx } = await withPolicy()
    const me = actor()
    ctx.emit('fs/observed', target('a.txt'), 'v1', me)
    expect(writeIntent(ctx, target('b.txt'), me)).toEqual({ kind: 'createIfAbsent' })
  })

  it('two sessions are isolated from each other', async () => {
    const { ctx } = await withPolicy()
    const first = actor(session('s1'))
    const second = actor(session('s2'))
    ctx.emit('fs/observed', target('a.txt'), 'v1', first)
    expect(() => editIntent(ctx, target('a.txt'), second)).toThrow(NOT_OBSERVED)
    ctx.emit('fs/observed', target('a.txt'), 'v9', second)
    expect(editIntent(ctx, target('a.txt'), first)).toEqual({ version: 'v1' })
    expect(editIntent(ctx, target('a.txt'), second)).toEqual({ version: 'v9' })
  })

  it('two executions of one session share its observations', async () => {
    const { ctx } = await withPolicy()
    const one = session('s1')
    ctx.emit('fs/observed', target('a.txt'), 'v1', actor(one))
    const again = { ...actor(one), callId: 'c2' }
    expect(editIntent(ctx, target('a.txt'), again)).toEqual({ version: 'v1' })
  })
})

describe('disposal', () => {
  it('after disposal the intents fall through to the inner value', async () => {
    const { ctx, fiber } = await withPolicy()
    const me = actor()
    ctx.emit('fs/observed', target('a.txt'), 'v1', me)
    await fiber.dispose()
    expect(ctx.waterfall('fs/write-intent', target('a.txt'), me, () => undefined)).toBeUndefined()
    expect(
      ctx.waterfall('fs/edit-intent', target('b.txt'), me, () => ({ version: 'inner' })),
    ).toEqual({
      version: 'inner',
    })
  })

  it('a policy loaded again starts with no observations', async () => {
    const { ctx, fiber } = await withPolicy()
    const me = actor()
    ctx.emit('fs/observed', target('a.txt'), 'v1', me)
    await fiber.dispose()
    ctx.emit('fs/observed', target('a.txt'), 'v2', me)
    await ctx.plugin(FsPolicy)
    expect(writeIntent(ctx, target('a.txt'), me)).toEqual({ kind: 'createIfAbsent' })
  })

  it('the gate forgets everything when cleared', () => {
    const gate = new ObservedStateGate()
    const me = actor()
    gate.record(target('a.txt'), 'v1', me)
    expect(gate.observedVersion(target('a.txt'), me)).toBe('v1')
    gate.clear()
    expect(gate.observedVersion(target('a.txt'), me)).toBeUndefined()
  })
})
