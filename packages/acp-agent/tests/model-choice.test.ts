import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiKeySource } from '../src/auth/api-key'
import { removeKey, storeKey } from '../src/auth/credentials'
import { chooseModel } from '../src/cli/model-choice'

describe('model choice', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dsh-model-choice-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it("the person's models file joins the model, and a bad one stops the start naming its entry", async () => {
    const config = join(dir, 'config')
    await mkdir(join(config, 'dsh'), { recursive: true })
    const file = join(config, 'dsh', 'models.json')
    await writeFile(file, JSON.stringify({ models: { mine: { contextWindow: 4096 } } }))
    const env = { DEEPSEEK_API_KEY: 'sk-test', XDG_CONFIG_HOME: config }
    const good = await chooseModel({ model: 'mine' }, env)
    expect(good).toMatchObject({ ok: true, model: { models: { mine: { contextWindow: 4096 } } } })
    await writeFile(file, JSON.stringify({ models: { mine: { contextWindow: 'big' } } }))
    expect(await chooseModel({}, env)).toEqual({
      ok: false,
      message: expect.stringMatching(
        new RegExp(`^the models file ${file} has a bad entry at models\\.mine\\.contextWindow: `),
      ),
    })
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

  it('--base-url alone selects the openai-compatible model with no key', async () => {
    const choice = await chooseModel(
      { baseUrl: 'http://127.0.0.1:11434/v1', contextWindow: 8192 },
      {},
    )
    expect(choice).toEqual({
      ok: true,
      model: { kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', contextWindow: 8192 },
      description:
        'OpenAI-compatible model deepseek-flash at http://127.0.0.1:11434/v1, no API key',
    })
  })

  it('the key comes from DSH_API_KEY, else DEEPSEEK_API_KEY, else OPENAI_API_KEY', async () => {
    const keyOf = async (env: Record<string, string>) => {
      const choice = await chooseModel({}, env)
      return choice.ok && choice.model.kind === 'openai' ? choice.model.apiKey : undefined
    }
    expect(await keyOf({ DSH_API_KEY: 'a', DEEPSEEK_API_KEY: 'b', OPENAI_API_KEY: 'c' })).toBe('a')
    expect(await keyOf({ DEEPSEEK_API_KEY: 'b', OPENAI_API_KEY: 'c' })).toBe('b')
    expect(await keyOf({ OPENAI_API_KEY: 'c' })).toBe('c')
  })

  it('no key and no script is the model at deepseek with no key, not a notice model', async () => {
    const choice = await chooseModel({ model: 'deepseek-reasoner' }, {})
    expect(choice).toEqual({
      ok: true,
      model: { kind: 'openai', model: 'deepseek-reasoner' },
      description:
        'OpenAI-compatible model deepseek-flash (for the retired deepseek-reasoner) at https://api.deepseek.com, no API key',
    })
  })

  it('a blank key counts as no key', async () => {
    const choice = await chooseModel({}, { DEEPSEEK_API_KEY: '   ' })
    expect(choice).toMatchObject({ ok: true, model: { kind: 'openai' } })
    expect(choice.ok && choice.model).not.toHaveProperty('apiKey')
  })

  it('with no key in the environment the model asks the stored key at each request', async () => {
    const file = join(dir, 'config', 'dsh', 'credentials.json')
    storeKey(file, 'https://api.deepseek.com', 'sk-stored')
    const keys = new ApiKeySource({ env: {}, file, baseUrl: 'https://api.deepseek.com', warn() {} })
    const choice = await chooseModel({}, {}, keys)
    expect(choice.ok && choice.description).toMatch(/, the key stored by --login$/)
    const model = choice.ok && choice.model.kind === 'openai' ? choice.model : undefined
    expect(model?.apiKey).toBeUndefined()
    expect(model?.resolveApiKey?.()).toBe('sk-stored')
    removeKey(file, 'https://api.deepseek.com')
    keys.refresh()
    expect(model?.resolveApiKey?.()).toBeUndefined()
  })

  it('an environment key wins over the stored one and is not asked again', async () => {
    const file = join(dir, 'config2', 'dsh', 'credentials.json')
    storeKey(file, 'https://api.deepseek.com', 'sk-stored')
    const env = { DEEPSEEK_API_KEY: 'sk-env' }
    const keys = new ApiKeySource({ env, file, baseUrl: 'https://api.deepseek.com', warn() {} })
    const choice = await chooseModel({}, env, keys)
    expect(choice).toMatchObject({ ok: true, model: { kind: 'openai', apiKey: 'sk-env' } })
    expect(choice.ok && choice.model.kind === 'openai' && 'resolveApiKey' in choice.model).toBe(
      false,
    )
    expect(keys.current()).toBe('sk-env')
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
