import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import { FileSessionStore } from '../src/index'
import { startDriver } from './helpers/child/spawn'
import { expectAgentError } from './helpers/errors'
import { sessionHeader, tempStore } from './helpers/store'

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''])
  return child.pid!
}

describe('locks', () => {
  it('a second open in the same process is AGENT_SESSION_LOCKED', async () => {
    const { dir, store } = await tempStore()
    store.create(sessionHeader('s1')).close()
    const { writer } = store.open('s1')
    expectAgentError(
      () => store.open('s1'),
      'AGENT_SESSION_LOCKED',
      /s1 is open already in this process/,
    )
    // Another store on the same directory in this process is refused too.
    const other = new FileSessionStore({ dir })
    expectAgentError(() => other.open('s1'), 'AGENT_SESSION_LOCKED', /s1/)
    writer.close()
  })

  it('an open writer holds its lock with this pid, and close removes it', async () => {
    const { dir, store } = await tempStore()
    const writer = store.create(sessionHeader('s1'))
    expect(readFileSync(join(dir, 's1.lock'), 'utf8')).toBe(`${process.pid}\n`)
    writer.close()
    expect(existsSync(join(dir, 's1.lock'))).toBe(false)
  })

  it('a lock left by a dead process is taken over with a warning', async () => {
    const { dir, store, warnings } = await tempStore()
    store.create(sessionHeader('s1')).close()
    const pid = deadPid()
    writeFileSync(join(dir, 's1.lock'), `${pid}\n`)
    const { writer } = store.open('s1')
    expect(readFileSync(join(dir, 's1.lock'), 'utf8')).toBe(`${process.pid}\n`)
    expect(warnings).toEqual([
      expect.stringContaining(`process ${pid} left it and is no longer running`),
    ])
    writer.close()
  })

  it('a lock naming this pid that this process does not hold is left over', async () => {
    const { dir, store, warnings } = await tempStore()
    store.create(sessionHeader('s1')).close()
    writeFileSync(join(dir, 's1.lock'), `${process.pid}\n`)
    store.open('s1').writer.close()
    expect(warnings).toEqual([expect.stringContaining('an earlier process with this pid left it')])
  })

  it('a lock held by a live process is AGENT_SESSION_LOCKED naming its pid, and free after it closes', async () => {
    const { dir, store } = await tempStore()
    store.create(sessionHeader('s1')).close()
    const holder = await startDriver(inject('driver'), ['hold', dir, 's1'])
    try {
      const pid = holder.child.pid!
      const error = expectAgentError(
        () => store.open('s1'),
        'AGENT_SESSION_LOCKED',
        new RegExp(`process ${pid}`),
      )
      expect(error.message).toContain(join(dir, 's1.lock'))
      expectAgentError(() => store.create(sessionHeader('s1')), 'AGENT_STORE_IO', /exists already/)
    } finally {
      holder.child.stdin.end()
      await holder.closed
    }
    expect(holder.child.exitCode).toBe(0)
    const { writer } = store.open('s1')
    writer.close()
  })

  it('a process that exits with a session still open leaves no lock behind', async () => {
    const { dir, store, warnings } = await tempStore()
    store.create(sessionHeader('s1')).close()
    const holder = await startDriver(inject('driver'), ['exit', dir, 's1'])
    expect(existsSync(join(dir, 's1.lock'))).toBe(true)
    holder.child.stdin.end()
    await holder.closed
    expect(holder.child.exitCode).toBe(0)
    expect(existsSync(join(dir, 's1.lock'))).toBe(false)
    store.open('s1').writer.close()
    expect(warnings).toEqual([])
  })
})
