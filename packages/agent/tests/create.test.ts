import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Context } from 'cordis'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import Agents, { AgentError, isAgentError } from '../src'
import { createHost } from './helpers/host'
import type { Host } from './helpers/host'

let host: Host

beforeEach(async () => {
  host = await createHost()
})

afterEach(async () => {
  await host.cleanup()
})

function createError(cwd: unknown): AgentError {
  try {
    host.agents.create({ cwd: cwd as string })
  } catch (error) {
    return error as AgentError
  }
  throw new Error('create did not throw')
}

describe('creating agents', () => {
  it('a new agent has a uuid session id, the cwd and a creation time', () => {
    const agent = host.agents.create({ cwd: host.dir })
    const { header } = agent.session
    expect(header.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect(header.cwd).toBe(host.dir)
    expect(Date.parse(header.createdAt)).not.toBeNaN()
    expect(agent.session.events).toEqual([])
    expect(agent.running).toBe(false)
  })

  it('each agent gets its own session id', () => {
    const first = host.agents.create({ cwd: host.dir })
    const second = host.agents.create({ cwd: host.dir })
    expect(first.session.header.id).not.toBe(second.session.header.id)
  })

  it('get finds an agent by session id and list returns agents oldest first', () => {
    const first = host.agents.create({ cwd: host.dir })
    const second = host.agents.create({ cwd: host.dir })
    expect(host.agents.get(second.session.header.id)).toBe(second)
    expect(host.agents.get('no-such-id')).toBeUndefined()
    expect(host.agents.list()).toEqual([first, second])
  })

  it('a cwd with a trailing slash or dot segments is stored normalised', () => {
    const agent = host.agents.create({ cwd: `${host.dir}/./` })
    expect(agent.session.header.cwd).toBe(host.dir)
  })

  it('a symlink to a directory is accepted as given', async () => {
    const link = join(host.dir, 'link')
    await mkdir(join(host.dir, 'real'))
    await symlink(join(host.dir, 'real'), link)
    expect(host.agents.create({ cwd: link }).session.header.cwd).toBe(link)
  })
})

describe('roots and mode', () => {
  it('the roots are the cwd then each added directory once, normalised', async () => {
    await mkdir(join(host.dir, 'a'))
    await mkdir(join(host.dir, 'b'))
    const agent = host.agents.create({
      cwd: host.dir,
      additionalDirectories: [join(host.dir, 'a/'), join(host.dir, 'b'), join(host.dir, 'a')],
    })
    expect(agent.session.header.roots).toEqual([host.dir, join(host.dir, 'a'), join(host.dir, 'b')])
    expect(host.agents.create({ cwd: host.dir }).session.header.roots).toEqual([host.dir])
  })

  it('an added directory that is relative or missing is refused naming its index', async () => {
    const attempt = (additionalDirectories: unknown) => () =>
      host.agents.create({
        cwd: host.dir,
        additionalDirectories: additionalDirectories as string[],
      })
    expect(attempt(['rel'])).toThrow('additionalDirectories[0] "rel" is a relative path.')
    expect(attempt([host.dir, join(host.dir, 'gone')])).toThrow(
      `additionalDirectories[1] "${join(host.dir, 'gone')}" does not exist.`,
    )
    expect(attempt('nope')).toThrow(expect.objectContaining({ code: 'AGENT_BAD_CWD' }))
  })

  it('setMode records the mode in the header and logs it once per change', () => {
    const agent = host.agents.create({ cwd: host.dir, mode: 'ask' })
    expect(agent.session.header.mode).toBe('ask')
    agent.setMode('ask')
    agent.setMode('read-only')
    expect(agent.session.header.mode).toBe('read-only')
    expect(agent.session.events).toEqual([{ type: 'session/mode', mode: 'read-only' }])
  })
})

describe('bad cwd', () => {
  it('a relative cwd is refused with AGENT_BAD_CWD and says what to give', () => {
    const error = createError('project')
    expect(error).toBeInstanceOf(AgentError)
    expect(error.code).toBe('AGENT_BAD_CWD')
    expect(error.message).toContain('"project" is a relative path')
    expect(error.message).toContain('absolute path of an existing directory')
  })

  it('a missing directory is refused with AGENT_BAD_CWD', () => {
    const error = createError(join(host.dir, 'missing'))
    expect(error.code).toBe('AGENT_BAD_CWD')
    expect(error.message).toContain('does not exist')
  })

  it('a path below a file is refused as missing', async () => {
    await writeFile(join(host.dir, 'file.txt'), 'x')
    expect(createError(join(host.dir, 'file.txt', 'sub')).message).toContain('does not exist')
  })

  it('a regular file is refused as not a directory', async () => {
    await writeFile(join(host.dir, 'file.txt'), 'x')
    const error = createError(join(host.dir, 'file.txt'))
    expect(error.code).toBe('AGENT_BAD_CWD')
    expect(error.message).toContain('is not a directory')
  })

  it('an empty or non-string cwd is refused with AGENT_BAD_CWD', () => {
    expect(createError('').message).toContain('cwd must be a non-empty string, got an empty')
    expect(createError(undefined).message).toContain('got undefined')
    expect(createError(42).code).toBe('AGENT_BAD_CWD')
  })

  it('isAgentError recognises the refusal, and its code when one is given', () => {
    const error = createError('relative')
    expect(isAgentError(error)).toBe(true)
    expect(isAgentError(error, 'AGENT_BAD_CWD')).toBe(true)
    expect(isAgentError(error, 'AGENT_BUSY')).toBe(false)
    expect(isAgentError(new Error('other'))).toBe(false)
  })

  it('a refused cwd creates no agent', () => {
    createError('relative')
    expect(host.agents.list()).toEqual([])
  })
})

describe('config', () => {
  it('a step limit that is not a positive integer fails the plugin load', async () => {
    const ctx = new Context()
    await expect(ctx.plugin(Agents, { maxSteps: 0 })).rejects.toThrow(
      /invalid config.*\n.*maxSteps/,
    )
    await expect(ctx.plugin(Agents, { maxSteps: 1.5 })).rejects.toThrow(/maxSteps/)
  })
})
