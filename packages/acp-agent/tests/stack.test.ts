import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NoticeLlm, startDsh } from '../src/index'

const SERVICES = [
  'fs',
  'tools',
  'systemPrompt',
  'shell',
  'jobs',
  'llm',
  'agents',
  'acp',
  'web',
] as const

describe('the library face', () => {
  let cwd = ''
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'dsh-stack-'))
  })
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true })
  })

  it('loads every service of the stack and disposing removes them all', async () => {
    const root = new Context()
    const dsh = await startDsh({ cwd, llm: { kind: 'unconfigured' } }, root)
    for (const key of SERVICES) expect(root.get(key), key).not.toBeUndefined()
    expect(root.get('llm')).toBeInstanceOf(NoticeLlm)
    expect(root.get('tools')?.names().sort()).toEqual([
      'bash',
      'diagnostics',
      'edit',
      'glob',
      'grep',
      'job_kill',
      'job_output',
      'read',
      'read_image',
      'skill',
      'task',
      'todo',
      'web_fetch',
      'write',
    ])
    await dsh.dispose()
    for (const key of SERVICES) expect(root.get(key), key).toBeUndefined()
  })

  it('offers web_search with a search provider and passes the private switch to ctx.web', async () => {
    const root = new Context()
    const web = { allowPrivate: true, searxngUrl: 'http://127.0.0.1:9' }
    const dsh = await startDsh({ cwd, llm: { kind: 'unconfigured' }, web }, root)
    expect(root.get('tools')?.names()).toContain('web_search')
    expect(root.get('web')?.searchProvider?.name).toBe('SearXNG at http://127.0.0.1:9')
    expect(root.get('web')?.allowsPrivate).toBe(true)
    await dsh.dispose()
  })

  it('the scripted model option loads the scripted model', async () => {
    const root = new Context()
    const script = { turns: [{ text: 'hi' }] }
    const dsh = await startDsh({ cwd, llm: { kind: 'scripted', script } }, root)
    expect(root.get('llm')?.constructor.name).toBe('ScriptedLlm')
    await dsh.dispose()
  })

  it('a plugin that cannot start fails the load', async () => {
    const model = { kind: 'openai' as const, apiKey: 'sk-test', baseUrl: 'not a url' }
    await expect(startDsh({ cwd, llm: model }, new Context())).rejects.toThrow(/baseUrl/)
  })
})
