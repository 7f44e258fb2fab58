import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { groupMembers, waitFor } from './helpers/os'
import { shellStack, textOf } from './helpers/stack'
import type { ShellStack } from './helpers/stack'

let stack: ShellStack

beforeEach(async () => {
  stack = await shellStack()
})

afterEach(async () => {
  await stack.cleanup()
})

function pidOf(result: { details?: unknown }): number {
  return (result.details as { pid: number }).pid
}

describe('background jobs', () => {
  it('returns at once with the job named by the call id', async () => {
    const began = Date.now()
    const result = await stack.call(
      'bash',
      { command: 'sleep 5', run_in_background: true },
      { callId: 'job-a' },
    )
    expect(Date.now() - began).toBeLessThan(1000)
    expect(textOf(result)).toContain('Started background job job-a.')
    expect(result.isError).toBe(false)
  })

  it('gives the output since the last read and then how the job ended', async () => {
    await stack.call(
      'bash',
      { command: 'echo first; sleep 0.3; echo second; exit 4', run_in_background: true },
      { callId: 'job-b' },
    )
    const first = await waitFor(async () => {
      const text = textOf(await stack.call('job_output', { job_id: 'job-b' }))
      return text.startsWith('first\n') ? text : undefined
    })
    expect(first).toBe('first\njob job-b still running')
    let later = ''
    const last = await waitFor(async () => {
      const text = textOf(await stack.call('job_output', { job_id: 'job-b' }))
      later += text.slice(0, text.lastIndexOf('job job-b'))
      return text.includes('ended') ? text.slice(text.lastIndexOf('job job-b')) : undefined
    })
    expect(later).toBe('second\n')
    expect(last).toBe('job job-b ended: exit code 4')
  })

  it('kills the job and its whole process group', async () => {
    const started = await stack.call(
      'bash',
      { command: '(sleep 221 &); sleep 222', run_in_background: true },
      { callId: 'job-c' },
    )
    const killed = await stack.call('job_kill', { job_id: 'job-c' })
    expect(textOf(killed)).toBe('job job-c ended: killed by signal SIGTERM (cancelled)')
    expect(groupMembers(pidOf(started))).toEqual([])
  })

  it('ends the jobs of a session when the session closes', async () => {
    const started = await stack.call(
      'bash',
      { command: '(sleep 223 &); sleep 224', run_in_background: true },
      { callId: 'job-d' },
    )
    stack.lifetime.abort()
    expect(await waitFor(async () => groupMembers(pidOf(started)).length === 0 || undefined)).toBe(
      true,
    )
    const after = await stack.call('job_output', { job_id: 'job-d' })
    expect(after.error?.code).toBe('JOB_NOT_FOUND')
    expect(textOf(after)).toContain('this session has none')
  })

  it("answers an unknown job with JOB_NOT_FOUND and the session's jobs", async () => {
    await stack.call('bash', { command: 'sleep 5', run_in_background: true }, { callId: 'job-e' })
    await stack.call('bash', { command: 'true', run_in_background: true }, { callId: 'job-f' })
    await waitFor(
      async () =>
        textOf(await stack.call('job_output', { job_id: 'job-f' })).includes('ended') || undefined,
    )
    const result = await stack.call('job_kill', { job_id: 'nope' })
    expect(result.error?.code).toBe('JOB_NOT_FOUND')
    expect(textOf(result)).toBe(
      'Error: No background job "nope" (this session\'s jobs: job-e (command: sleep 5, running); ' +
        'job-f (command: true, ended)). Use the id a bash or task call with `run_in_background` returned.',
    )
  })

  it("does not read or end another session's job", async () => {
    await stack.call(
      'bash',
      { command: 'sleep 225', run_in_background: true },
      { callId: 'job-g', mode: 'full-access' },
    )
    const other = await stack.call('job_kill', { job_id: 'job-g' }, { mode: 'ask' })
    expect(other.error?.code).toBe('JOB_NOT_FOUND')
    const own = await stack.call('job_output', { job_id: 'job-g' }, { mode: 'full-access' })
    expect(textOf(own)).toBe('job job-g still running')
  })
})
