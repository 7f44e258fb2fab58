import { describe, expect, it } from 'vitest'
import { retryAfterMs, serverMessage } from '../src/http'

describe('retry-after', () => {
  it('seconds, fractions and dates become milliseconds', () => {
    const now = Date.parse('2030-01-01T00:00:00Z')
    expect(retryAfterMs('2', now)).toBe(2000)
    expect(retryAfterMs('0.5', now)).toBe(500)
    expect(retryAfterMs('Tue, 01 Jan 2030 00:00:03 GMT', now)).toBe(3000)
  })

  it('a past date waits zero and a missing or garbled header is ignored', () => {
    const now = Date.parse('2030-01-01T00:00:00Z')
    expect(retryAfterMs('Mon, 31 Dec 2029 00:00:00 GMT', now)).toBe(0)
    expect(retryAfterMs('-4', now)).toBe(0)
    expect(retryAfterMs(null, now)).toBeUndefined()
    expect(retryAfterMs('  ', now)).toBeUndefined()
    expect(retryAfterMs('soon', now)).toBeUndefined()
  })
})

describe('server messages', () => {
  it('the message is found in the usual error shapes', () => {
    expect(serverMessage('{"error":{"message":"bad key"}}', '')).toBe('bad key')
    expect(serverMessage('{"error":"quota"}', '')).toBe('quota')
    expect(serverMessage('{"message":"nope"}', '')).toBe('nope')
  })

  it('other bodies fall back to the text, then the status text', () => {
    expect(serverMessage('  upstream down \n', 'Bad Gateway')).toBe('upstream down')
    expect(serverMessage('', 'Bad Gateway')).toBe('Bad Gateway')
    expect(serverMessage('', '')).toBe('no message')
    expect(serverMessage('x'.repeat(400), '')).toBe(`${'x'.repeat(300)}…`)
  })
})
