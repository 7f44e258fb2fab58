// The id of an oversized line, read from its first bytes only.
import { describe, expect, it } from 'vitest'
import { requestIdOf } from '../src/start/line-id'

describe('the id of a line from its start', () => {
  it.each([
    ['{"jsonrpc":"2.0","id":12,"method":"session/prompt","params":{"prompt":[', 12],
    ['{ "id" : "req-1" , "method":"x"', 'req-1'],
    ['{"jsonrpc":"2.0","method":"session/prompt","id":3.5,"params":', 3.5],
    ['{"params":{"id":1,"nested":["]",{"}":"\\"id\\""}]},"id":9,"method":"x"}', 9],
    ['{"jsonrpc":"2.0","method":"x","params":{"text":"…', undefined],
    ['{"jsonrpc":"2.0","id":null,"method":"x"', undefined],
    ['{"jsonrpc":"2.0","id":{"a":1},"method":"x"', undefined],
    ['{"jsonrpc":"2.0","id":12', undefined],
    ['{"jsonrpc":"2.0","id":"unterminat', undefined],
    ['{"jsonrpc":"2.0","id":4,"result":{"content":"', undefined],
    ['{"jsonrpc":"2.0","error":{"code":1},"id":4', undefined],
    ['[{"id":1}', undefined],
    ['not json at all', undefined],
    ['', undefined],
  ])('%s → %s', (head, id) => {
    expect(requestIdOf(head)).toBe(id)
  })
})
