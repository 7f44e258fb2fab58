import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NoticeLlm, startDsh } from '../src/index'

const SERVICES = ['fs', 'tools', 'systemPrompt', 'shell', 'llm', 'agents', 'acp'] as const

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
      'edit',
      'glob',
      'grep',
      'job_kill',
      'job_output',
      'read',
      'task',
      'todo',
      'write',
    ])
    await dsh.dispose()
    for (const key of SERVICES) expect(root.get(key), key).toBeUndefined()
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
