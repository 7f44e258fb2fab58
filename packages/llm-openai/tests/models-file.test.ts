// The person's models file: where it is looked for, good files (facts that override the table
// field by field, reaching modelInfo and the thinking style), and bad ones (each refused with
// the file, the entry and what is wrong named), on the real disk.
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  DEEPSEEK_PEAK_WINDOWS,
  defaultModelsFile,
  parseModelsFile,
  readModelsFile,
} from '@deepseek-ai/dsh-llm-openai'
import { model } from './helpers/client'

async function fileWith(content: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-models-'))
  const path = join(dir, 'models.json')
  await writeFile(path, content)
  return path
}

describe('where the models file is', () => {
  it('is under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(defaultModelsFile({ XDG_CONFIG_HOME: '/cfg', HOME: '/h' })).toBe('/cfg/dsh/models.json')
    expect(defaultModelsFile({ XDG_CONFIG_HOME: ' ', HOME: '/h' })).toBe(
      '/h/.config/dsh/models.json',
    )
  })

  it('a missing file gives no facts, and a folder in its place is refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dsh-models-'))
    expect(await readModelsFile(join(dir, 'models.json'))).toBeUndefined()
    await mkdir(join(dir, 'folder.json'))
    await expect(readModelsFile(join(dir, 'folder.json'))).rejects.toThrow(
      /folder\.json is not a regular file/,
    )
  })
})

describe('a good models file', () => {
  it('overrides the table field by field and adds a model', async () => {
    const path = await fileWith(
      JSON.stringify({
        models: {
          'deepseek-flash': { contextWindow: 2_000_000 },
          'deepseek-v6': {
            contextWindow: 4096,
            maxOutputTokens: 1024,
            imageInput: true,
            thinking: 'deepseek',
            prices: {
              currency: 'USD',
              inputPerMillion: 2,
              cachedInputPerMillion: 0.02,
              outputPerMillion: 4,
              offPeak: { inputPerMillion: 1, cachedInputPerMillion: 0.01, outputPerMillion: 2 },
              peak: DEEPSEEK_PEAK_WINDOWS,
            },
          },
        },
      }),
    )
    const models = await readModelsFile(path)
    const llm = await model({ models })
    expect(llm.modelInfo('deepseek-flash')).toMatchObject({
      contextWindow: 2_000_000,
      maxOutputTokens: 393_216,
      imageInput: true,
    })
    expect(llm.modelInfo('deepseek-v6')).toMatchObject({
      contextWindow: 4096,
      maxOutputTokens: 1024,
      imageInput: true,
      prices: { inputPerMillion: 2, offPeak: { inputPerMillion: 1 } },
    })
    expect(llm.thoughtLevels('deepseek-v6')?.levels).toEqual(['off', 'low', 'high', 'max'])
  })
})

describe('a bad models file', () => {
  const rates = { inputPerMillion: 1, cachedInputPerMillion: 1, outputPerMillion: 1 }
  /** Off-peak rates, without the peak windows they need. */
  const byTheClock = { currency: 'USD', ...rates, offPeak: rates }
  const cases: [string, unknown, RegExp][] = [
    [
      'a price that is not a number',
      { models: { 'deepseek-flash': { prices: { currency: 'USD', inputPerMillion: 'x' } } } },
      /at models\["deepseek-flash"\]\.prices\.inputPerMillion: /,
    ],
    ['an unknown field', { models: { m: { window: 5 } } }, /at models\.m: .*window/],
    [
      'a thinking style nobody knows',
      { models: { m: { thinking: 'deep' } } },
      /models\.m\.thinking/,
    ],
    [
      'off-peak rates without the peak windows',
      { models: { m: { prices: { ...byTheClock } } } },
      /models\.m\.prices: offPeak and peak go together/,
    ],
    [
      'a peak window backwards',
      {
        models: {
          m: { prices: { ...byTheClock, peak: [{ days: [1], from: '10:00', to: '09:00' }] } },
        },
      },
      /models\.m\.prices\.peak\[0\]: from must come before to/,
    ],
    ['no models key', { m: {} }, /at the top level|models/],
  ]
  it.each(cases)('%s is refused, naming the entry', (_name, content, named) => {
    const read = () => parseModelsFile(JSON.stringify(content), '/cfg/dsh/models.json')
    expect(read).toThrow(named)
    expect(read).toThrow(/^the models file \/cfg\/dsh\/models\.json has a bad entry at .*; fix it/)
  })

  it('a file that is not JSON is refused with the parser’s word', async () => {
    const path = await fileWith('{ "models": ')
    await expect(readModelsFile(path)).rejects.toThrow(/models\.json is not JSON \(.+\); fix it/)
  })
})
