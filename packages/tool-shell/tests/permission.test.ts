// The permission layer over real bash calls: each mode against the command cases — read-only
// commands, a redirect, a substitution, compound commands, pipes into filters, an always-allowed
// prefix, unparseable input — with the classifier judging and the gate deciding.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { shellStack, textOf } from './helpers/stack'
import type { ShellStack } from './helpers/stack'

let stack: ShellStack

beforeEach(async () => {
  stack = await shellStack()
})

afterEach(async () => {
  await stack.cleanup()
})

type Outcome = 'ran' | 'asked' | 'refused'

async function outcome(command: string, mode: string): Promise<Outcome> {
  const before = stack.asked.length
  const result = await stack.call('bash', { command }, { mode })
  if (result.error?.code === 'PERMISSION_DENIED') return 'refused'
  expect(textOf(result)).toMatch(/exit code \d+$/)
  return stack.asked.length > before ? 'asked' : 'ran'
}

const CASES: [string, string, Record<string, Outcome>][] = [
  ['a read-only command', 'ls -la', { ask: 'ran', 'auto-edit': 'ran', 'read-only': 'ran' }],
  [
    'git status',
    'git status 2>&1 | head -3',
    { ask: 'ran', 'auto-edit': 'ran', 'read-only': 'ran' },
  ],
  [
    'a pipe into filters',
    'echo b a | tr " " "\\n" | sort | head -1',
    { ask: 'ran', 'auto-edit': 'ran', 'read-only': 'ran' },
  ],
  [
    'a read outside the roots',
    'cat /etc/hostname | sort | head -1',
    { ask: 'asked', 'auto-edit': 'asked', 'read-only': 'asked' },
  ],
  [
    'a sort that writes through an abbreviated option',
    'echo x | sort --out=sorted.txt',
    { ask: 'asked', 'auto-edit': 'asked', 'read-only': 'refused' },
  ],
  [
    'a redirect',
    'echo hi > out.txt',
    { ask: 'asked', 'auto-edit': 'asked', 'read-only': 'refused' },
  ],
  [
    'a command substitution',
    'echo $(date)',
    { ask: 'asked', 'auto-edit': 'asked', 'read-only': 'refused' },
  ],
  [
    'a compound with a writer',
    'ls && touch made.txt',
    { ask: 'asked', 'auto-edit': 'asked', 'read-only': 'refused' },
  ],
  [
    'a writer piped into a filter',
    'touch t.txt | tail -1',
    { ask: 'asked', 'auto-edit': 'asked', 'read-only': 'refused' },
  ],
  [
    'unparseable input',
    'echo "unterminated',
    { ask: 'asked', 'auto-edit': 'asked', 'read-only': 'refused' },
  ],
]

describe('the permission table for commands', () => {
  for (const [label, command, table] of CASES) {
    for (const mode of ['ask', 'auto-edit', 'read-only', 'full-access'] as const) {
      const expected = table[mode] ?? 'ran'
      it(`${label} in ${mode} is ${expected}`, async () => {
        expect(await outcome(command, mode)).toBe(expected)
      })
    }
  }

  it('a refused redirect writes nothing', async () => {
    expect(await outcome('echo hi > out.txt', 'read-only')).toBe('refused')
    expect(existsSync(join(stack.root, 'out.txt'))).toBe(false)
  })

  it('a rejected command runs nothing', async () => {
    stack.reply = 'reject_once'
    const result = await stack.call('bash', { command: 'touch made.txt' }, { mode: 'ask' })
    expect(result.error?.code).toBe('PERMISSION_REJECTED')
    expect(existsSync(join(stack.root, 'made.txt'))).toBe(false)
  })
})

describe('the question', () => {
  it('shows the whole command in a sh block and where it runs', async () => {
    await stack.call('bash', { command: 'touch a.txt\ntouch b.txt' }, { mode: 'ask' })
    const [request] = stack.asked
    expect(request!.presentation.title).toBe('touch a.txt (+1 lines)')
    expect(request!.preview).toEqual([
      { type: 'text', text: '```sh\ntouch a.txt\ntouch b.txt\n```' },
      { type: 'text', text: `in ${stack.root}` },
    ])
  })

  it('offers to always allow the prefix of the command', async () => {
    await stack.call('bash', { command: 'git add . 2>/dev/null; npm test' }, { mode: 'ask' })
    expect(stack.asked[0]!.options.map((option) => option.name)).toEqual([
      'Allow',
      'Always allow git add … and npm test … in this session',
      'Reject',
    ])
  })

  it('offers to always allow only the exact text of an unparseable command', async () => {
    await stack.call('bash', { command: 'echo "x' }, { mode: 'ask' })
    expect(stack.asked[0]!.options[1]!.name).toBe('Always allow this exact command in this session')
  })
})

describe('always allow by prefix', () => {
  it('allows git add but not git commit', async () => {
    stack.reply = 'allow_always'
    expect(await outcome('git add a.txt 2>/dev/null || echo no repo', 'ask')).toBe('asked')
    stack.reply = 'reject_once'
    expect(await outcome('git add b.txt 2>/dev/null || echo no repo', 'ask')).toBe('ran')
    const commit = await stack.call('bash', { command: 'git commit -m x' }, { mode: 'ask' })
    expect(commit.error?.code).toBe('PERMISSION_REJECTED')
  })

  it('covers the command piped into read-only filters', async () => {
    stack.reply = 'allow_always'
    expect(await outcome('seq 3', 'ask')).toBe('asked')
    stack.reply = 'reject_once'
    expect(await outcome('seq 3 | tail -1', 'ask')).toBe('ran')
    expect(await outcome('seq 3 | grep 2 | head -1', 'ask')).toBe('ran')
    const written = await stack.call('bash', { command: 'seq 3 > s.txt' }, { mode: 'ask' })
    expect(written.error?.code).toBe('PERMISSION_REJECTED')
  })
})
