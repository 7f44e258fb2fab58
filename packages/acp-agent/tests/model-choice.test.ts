import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chooseModel } from '../src/model-choice'

describe('model choice', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dsh-model-choice-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('a script wins over a key', async () => {
    const file = join(dir, 'ok.json')
    await writeFile(file, JSON.stringify({ turns: [{ text: 'hi' }] }))
    const choice = await chooseModel({ script: file }, { DEEPSEEK_API_KEY: 'sk-test' })
    expect(choice).toMatchObject({
      ok: true,
      model: { kind: 'scripted', script: { turns: [{ text: 'hi' }] } },
    })
  })

  it('a key selects the openai-compatible model with the flags', async () => {
    const choice = await chooseModel(
      { model: 'deepseek-reasoner', baseUrl: 'http://127.0.0.1:1' },
      { DEEPSEEK_API_KEY: ' sk-test ' },
    )
    expect(choice).toMatchObject({
      ok: true,
      model: {
        kind: 'openai',
        apiKey: 'sk-test',
        model: 'deepseek-reasoner',
        baseUrl: 'http://127.0.0.1:1',
      },
    })
  })

  it('no key and no script is the unconfigured model', async () => {
    expect(await chooseModel({}, {})).toMatchObject({ ok: true, model: { kind: 'unconfigured' } })
  })

  it('a blank key counts as no key', async () => {
    const choice = await chooseModel({}, { DEEPSEEK_API_KEY: '   ' })
    expect(choice).toMatchObject({ ok: true, model: { kind: 'unconfigured' } })
  })

  it('a missing script file is refused naming the file', async () => {
    const file = join(dir, 'absent.json')
    const choice = await chooseModel({ script: file }, {})
    expect(choice.ok).toBe(false)
    expect(!choice.ok && choice.message).toContain(file)
    expect(!choice.ok && choice.message).toContain('no such file')
  })

  it('a script that is not json is refused naming the file', async () => {
    const file = join(dir, 'broken.json')
    await writeFile(file, '{ "turns": [')
    const choice = await chooseModel({ script: file }, {})
    expect(!choice.ok && choice.message).toMatch(/broken\.json is not valid JSON/)
  })

  it('a script with a bad entry is refused naming the entry', async () => {
    const file = join(dir, 'bad-entry.json')
    await writeFile(file, JSON.stringify({ turns: [{ toolCalls: [{ name: '', arguments: {} }] }] }))
    const choice = await chooseModel({ script: file }, {})
    expect(!choice.ok && choice.message).toContain('turns[0].toolCalls[0].name')
  })
})
