import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LlmError, loadLlmScript, parseLlmScript } from '@deepseek-ai/dsh-llm'

function problemOf(value: unknown): { message: string; path?: string } {
  try {
    parseLlmScript(value)
  } catch (error) {
    expect(error).toBeInstanceOf(LlmError)
    const scriptError = error as LlmError
    expect(scriptError.code).toBe('LLM_SCRIPT_INVALID')
    return { message: scriptError.message, path: scriptError.path }
  }
  throw new Error('the script was accepted')
}

describe('good scripts', () => {
  it('the spec example parses to the same turns', () => {
    const value = {
      turns: [
        { text: 'Let me look.', toolCalls: [{ name: 'read', arguments: { file_path: 'a.txt' } }] },
        {
          reasoning: 'Now fix it.',
          toolCalls: [{ id: 'c2', name: 'edit', arguments: { file_path: 'a.txt' } }],
        },
        { text: 'Done.' },
      ],
    }
    expect(parseLlmScript(value)).toEqual(value)
  })

  it('an empty turn list is a valid script', () => {
    expect(parseLlmScript({ turns: [] })).toEqual({ turns: [] })
  })

  it('an empty text still counts as content', () => {
    expect(parseLlmScript({ turns: [{ text: '' }] })).toEqual({ turns: [{ text: '' }] })
  })
})

describe('malformed scripts', () => {
  const cases: [string, unknown, string, string | undefined][] = [
    ['not an object', 'hello', 'the script must be an object with a "turns" array', undefined],
    ['an array', [], 'the script must be an object with a "turns" array', undefined],
    ['turns missing', {}, 'turns must be an array', 'turns'],
    [
      'an unknown top key',
      { turns: [], steps: [] },
      'steps is not a known key (expected turns)',
      'steps',
    ],
    [
      'a turn that is not an object',
      { turns: [{ text: 'a' }, 3] },
      'turns[1] must be an object',
      'turns[1]',
    ],
    [
      'an empty turn',
      { turns: [{}] },
      'turns[0] needs at least one of text, reasoning, toolCalls',
      'turns[0]',
    ],
    ['a numeric text', { turns: [{ text: 5 }] }, 'turns[0].text must be a string', 'turns[0].text'],
    [
      'a reasoning array',
      { turns: [{ reasoning: ['x'] }] },
      'turns[0].reasoning must be a string',
      'turns[0].reasoning',
    ],
    [
      'a misspelt turn key',
      { turns: [{ text: 'a', toolcalls: [] }] },
      'turns[0].toolcalls is not a known key (expected text, reasoning, toolCalls)',
      'turns[0].toolcalls',
    ],
    [
      'tool calls not an array',
      { turns: [{ toolCalls: {} }] },
      'turns[0].toolCalls must be an array',
      'turns[0].toolCalls',
    ],
    [
      'empty tool calls',
      { turns: [{ toolCalls: [] }] },
      'turns[0].toolCalls must not be empty',
      'turns[0].toolCalls',
    ],
    [
      'a call that is not an object',
      { turns: [{ toolCalls: [null] }] },
      'turns[0].toolCalls[0] must be an object',
      'turns[0].toolCalls[0]',
    ],
    [
      'a call without a name',
      { turns: [{ text: 'a' }, { text: 'b' }, { toolCalls: [{ arguments: {} }] }] },
      'turns[2].toolCalls[0].name must be a non-empty string',
      'turns[2].toolCalls[0].name',
    ],
    [
      'a call with an empty name',
      { turns: [{ toolCalls: [{ name: '', arguments: {} }] }] },
      'turns[0].toolCalls[0].name must be a non-empty string',
      'turns[0].toolCalls[0].name',
    ],
    [
      'arguments as a JSON string',
      { turns: [{ text: 'a' }, { text: 'b' }, { toolCalls: [{ name: 'read', arguments: '{}' }] }] },
      'turns[2].toolCalls[0].arguments must be an object',
      'turns[2].toolCalls[0].arguments',
    ],
    [
      'arguments as an array',
      { turns: [{ toolCalls: [{ name: 'read', arguments: [] }] }] },
      'turns[0].toolCalls[0].arguments must be an object',
      'turns[0].toolCalls[0].arguments',
    ],
    [
      'arguments missing',
      { turns: [{ toolCalls: [{ name: 'read' }] }] },
      'turns[0].toolCalls[0].arguments must be an object',
      'turns[0].toolCalls[0].arguments',
    ],
    [
      'a numeric id',
      { turns: [{ toolCalls: [{ id: 7, name: 'read', arguments: {} }] }] },
      'turns[0].toolCalls[0].id must be a non-empty string',
      'turns[0].toolCalls[0].id',
    ],
    [
      'an id repeated in one turn',
      {
        turns: [
          {
            toolCalls: [
              { id: 'c1', name: 'read', arguments: {} },
              { id: 'c1', name: 'edit', arguments: {} },
            ],
          },
        ],
      },
      'turns[0].toolCalls[1].id "c1" is already used by turns[0].toolCalls[0]',
      'turns[0].toolCalls[1].id',
    ],
    [
      'an unknown call key',
      { turns: [{ toolCalls: [{ name: 'read', args: {}, arguments: {} }] }] },
      'turns[0].toolCalls[0].args is not a known key (expected id, name, arguments)',
      'turns[0].toolCalls[0].args',
    ],
  ]

  it.each(cases)('%s is refused with its entry named', (_label, value, message, path) => {
    expect(problemOf(value)).toEqual({ message: `invalid model script: ${message}`, path })
  })
})

describe('script files', () => {
  let dir: string

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dsh-llm-script-'))
  })

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('a valid file loads into its script', async () => {
    const file = join(dir, 'script.json')
    await writeFile(file, JSON.stringify({ turns: [{ text: 'hi' }] }))
    expect(await loadLlmScript(file)).toEqual({ turns: [{ text: 'hi' }] })
  })

  it('a missing file is refused naming the file', async () => {
    const file = join(dir, 'absent.json')
    await expect(loadLlmScript(file)).rejects.toMatchObject({
      name: 'LlmError',
      code: 'LLM_SCRIPT_INVALID',
      message: `cannot read model script ${file}: no such file`,
      file,
    })
  })

  it('a directory is refused naming the path', async () => {
    await expect(loadLlmScript(dir)).rejects.toThrow(`cannot read model script ${dir}: `)
  })

  it('a file of bad JSON is refused naming the file', async () => {
    const file = join(dir, 'bad.json')
    await writeFile(file, '{ "turns": [')
    await expect(loadLlmScript(file)).rejects.toThrow(`model script ${file} is not valid JSON: `)
  })

  it('a file of the wrong shape names the file and the entry', async () => {
    const file = join(dir, 'shape.json')
    await writeFile(
      file,
      JSON.stringify({ turns: [{ toolCalls: [{ name: 'read', arguments: 1 }] }] }),
    )
    const error = await loadLlmScript(file).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(LlmError)
    expect((error as LlmError).message).toBe(
      `invalid model script ${file}: turns[0].toolCalls[0].arguments must be an object`,
    )
    expect((error as LlmError).file).toBe(file)
    expect((error as LlmError).path).toBe('turns[0].toolCalls[0].arguments')
  })
})
