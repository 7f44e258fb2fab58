// The jobs seam through the real registry: job_output and job_kill find a job among the
// providers by the call's session, refuse an unknown id with the session's jobs listed, judge
// their calls as a read and as nothing, and everything goes away with its plugin. The
// providers here are small tables of the interface; tool-shell and tool-task are the real ones
// (their tests, and acp-testing's, run these tools over them).
import { Context } from 'cordis'
import type { Fiber } from 'cordis'
import { afterEach, describe, expect, it } from 'vitest'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import type { ToolExecution, ToolSession } from '@deepseek-ai/dsh-tools'
import Jobs from '../src/index'
import type { JobProvider } from '../src/index'
import { testExecution, testSession } from '@deepseek-ai/dsh-tools/testing'

const mounted: Fiber[] = []
afterEach(async () => {
  for (const fiber of mounted.splice(0)) await fiber.dispose()
})

async function mount() {
  const ctx = new Context()
  mounted.push(await ctx.plugin(ToolRegistry))
  const jobs = await ctx.plugin(Jobs)
  return { ctx, jobs }
}

const sessionA = testSession({ id: 'a', cwd: '/work/a', roots: ['/work/a'] })
const sessionB = testSession({ id: 'b', cwd: '/work/b', roots: ['/work/b'] })

/** A provider holding `ids` for `owner`, each running until killed; it records what it was asked. */
function tableOf(kind: string, owner: ToolSession, ids: string[]) {
  const running = new Set(ids)
  const asked: string[] = []
  const provider: JobProvider = {
    list: (session) =>
      session === owner
        ? ids.map((id) => ({ id, label: `${kind}: ${id}`, running: running.has(id) }))
        : [],
    read: (id, exec) => {
      asked.push(`read ${id} by ${exec.callId}`)
      return `${kind} ${id} ${running.has(id) ? 'runs' : 'ended'}`
    },
    kill: async (id) => {
      asked.push(`kill ${id}`)
      running.delete(id)
      return `${kind} ${id} was killed`
    },
  }
  return { provider, asked }
}

let calls = 0
function call(ctx: Context, name: string, jobId: string, session: ToolSession) {
  const exec: ToolExecution = {
    callId: `c${++calls}`,
    name,
    arguments: { job_id: jobId },
    session,
  }
  return ctx.tools.execute(exec)
}

describe('job_output and job_kill', () => {
  it('reach the provider that holds the id in the call’s session', async () => {
    const { ctx } = await mount()
    const commands = tableOf('command', sessionA, ['call_1'])
    const tasks = tableOf('task', sessionA, ['task-call_2'])
    ctx.jobs.provide(commands.provider)
    ctx.jobs.provide(tasks.provider)
    const read = await call(ctx, 'job_output', 'task-call_2', sessionA)
    expect(read.content[0]?.text).toBe('task task-call_2 runs')
    const killed = await call(ctx, 'job_kill', 'call_1', sessionA)
    expect(killed.content[0]?.text).toBe('command call_1 was killed')
    expect(tasks.asked).toEqual([expect.stringMatching(/^read task-call_2 by c\d+$/)])
    expect(commands.asked).toEqual(['kill call_1'])
  })

  it('refuse an id the session does not know with JOB_NOT_FOUND and its jobs listed', async () => {
    const { ctx } = await mount()
    ctx.jobs.provide(tableOf('command', sessionA, ['call_1']).provider)
    ctx.jobs.provide(tableOf('task', sessionA, ['task-call_2']).provider)
    await call(ctx, 'job_kill', 'call_1', sessionA)
    const unknown = await call(ctx, 'job_output', 'call_9', sessionA)
    expect(unknown.error).toEqual({ name: 'JobError', code: 'JOB_NOT_FOUND' })
    expect(unknown.content[0]?.text).toBe(
      'Error: No background job "call_9" (this session\'s jobs: call_1 (command: call_1, ' +
        'ended); task-call_2 (task: task-call_2, running)). Use the id a bash or task call ' +
        'with `run_in_background` returned.',
    )
    const other = await call(ctx, 'job_kill', 'call_1', sessionB)
    expect(other.error?.code).toBe('JOB_NOT_FOUND')
    expect(other.content[0]?.text).toContain('(this session has none)')
  })

  it('judge job_output a read of the workspace and job_kill as touching nothing', async () => {
    const { ctx } = await mount()
    const exec = testExecution('job_output', {}, { session: sessionA })
    const args = { job_id: 'x' }
    expect(ctx.tools.get('job_output')?.access?.(args, exec)).toEqual({
      effect: 'read',
      scope: ['/work/a'],
    })
    expect(ctx.tools.get('job_kill')?.access?.(args, exec)).toEqual({ effect: 'none' })
  })
})

describe('the jobs service', () => {
  it('drops a provider with its plugin, or when its disposer is called', async () => {
    const { ctx } = await mount()
    const fiber = await ctx.inject(['jobs'], (inner) => {
      inner.jobs.provide(tableOf('command', sessionA, ['call_1']).provider)
    })
    const remove = ctx.jobs.provide(tableOf('task', sessionA, ['task-call_2']).provider)
    expect(ctx.jobs.list(sessionA).map((job) => job.id)).toEqual(['call_1', 'task-call_2'])
    await fiber.dispose()
    expect(ctx.jobs.list(sessionA).map((job) => job.id)).toEqual(['task-call_2'])
    remove()
    expect(ctx.jobs.size).toBe(0)
    expect((await call(ctx, 'job_output', 'task-call_2', sessionA)).error?.code).toBe(
      'JOB_NOT_FOUND',
    )
  })

  it('registers the two tools and removes them on dispose', async () => {
    const { ctx, jobs } = await mount()
    expect(ctx.tools.names()).toEqual(['job_output', 'job_kill'])
    await jobs.dispose()
    expect(ctx.tools.names()).toEqual([])
  })
})
