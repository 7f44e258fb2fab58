import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import {
  LLM_ERROR_CODES,
  LlmError,
  createAbortError,
  isAbortError,
  isLlmError,
} from '@deepseek-ai/dsh-llm'

describe('LlmError', () => {
  it('keeps its name, code, status and cause', () => {
    const cause = new Error('socket hang up')
    const error = new LlmError('LLM_HTTP', 'boom', { status: 502, cause })
    expect(error).toMatchObject({ name: 'LlmError', code: 'LLM_HTTP', status: 502, cause })
    expect([error.path, error.file]).toEqual([undefined, undefined])
  })

  it('isLlmError checks the class and, when given, the code', () => {
    const error = new LlmError('LLM_STREAM', 'cut')
    expect(isLlmError(error)).toBe(true)
    expect(isLlmError(error, 'LLM_STREAM')).toBe(true)
    expect(isLlmError(error, 'LLM_TIMEOUT')).toBe(false)
    expect(isLlmError(Object.assign(new Error('cut'), { code: 'LLM_STREAM' }))).toBe(false)
  })

  it('every code is listed once in the README error table', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')
    for (const code of LLM_ERROR_CODES) {
      expect(readme.split('\n').filter((line) => line.startsWith(`| \`${code}\` |`))).toHaveLength(
        1,
      )
    }
  })
})

describe('abort errors', () => {
  it('createAbortError is an LLM_ABORTED LlmError caused by the signal reason', () => {
    const controller = new AbortController()
    controller.abort('user cancel')
    const error = createAbortError(controller.signal)
    expect(error).toMatchObject({ name: 'LlmError', code: 'LLM_ABORTED', cause: 'user cancel' })
    expect(isAbortError(error)).toBe(true)
  })

  it('isAbortError accepts a DOM AbortError and refuses other failures', () => {
    const controller = new AbortController()
    controller.abort()
    expect(isAbortError(controller.signal.reason)).toBe(true)
    expect(isAbortError(new LlmError('LLM_TIMEOUT', 'slow'))).toBe(false)
    expect(isAbortError(new Error('aborted'))).toBe(false)
    expect(isAbortError({ name: 'AbortError' })).toBe(false)
  })
})
