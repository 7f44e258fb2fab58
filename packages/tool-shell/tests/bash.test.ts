import { readFile } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolCallProgress } from '@deepseek-ai/dsh-tools'
import { shellStack, textOf } from './helpers/stack'
import type { ShellStack } from './helpers/stack'

let stack: ShellStack

beforeEach(async () => {
  stack = await shellStack()
})

afterEach(async () => {
  await stack.cleanup()
})

describe('the result', () => {
  it('gives the output then the exit code, and completes on 0', async () => {
    const result = await stack.call('bash', { command: 'echo hi; echo oops >&2' })
    expect(textOf(result)).toBe('hi\noops\nexit code 0')
    expect(result.isError).toBe(false)
  })

  it('fails the card on a non-zero exit with the same text', async () => {
    const result = await stack.call('bash', { command: 'echo no; exit 2' })
    expect(textOf(result)).toBe('no\nexit code 2')
    expect(result.isError).toBe(true)
  })

  it('names the signal that killed the command', async () => {
    const result = await stack.call('bash', { command: 'kill -KILL $$' })
    expect(textOf(result)).toBe('killed by signal SIGKILL')
  })

  it('says the command timed out and returns the output so far', async () => {
    const result = await stack.call('bash', { command: 'echo early; sleep 30', timeout: 200 })
    expect(textOf(result)).toBe('early\ntimed out after 0.2 s')
    expect(result.isError).toBe(true)
  })

  it('clamps a timeout over the limit and says so', async () => {
    const result = await stack.call('bash', { command: 'true', timeout: 900_000 })
    expect(textOf(result)).toBe(
      'timeout 900000 ms is over the limit: it ran with 600000 ms\nexit code 0',
    )
  })

  it('returns within 5 s with the output so far when the call is cancelled', async () => {
    const controller = new AbortController()
    const began = Date.now()
    const pending = stack.call(
      'bash',
      { command: "trap '' TERM; echo up; sleep 30" },
      {
        signal: controller.signal,
        report: (progress) => {
          if (progress.type === 'output') controller.abort()
        },
      },
    )
    const result = await pending
    expect(Date.now() - began).toBeLessThan(5000)
    expect(textOf(result)).toBe('up\nkilled by signal SIGKILL (cancelled)')
    const presented = stack.ctx.tools.presentResult('bash', { command: 'x' }, result)
    expect(presented?.content?.at(-1)).toEqual({
      type: 'text',
      text: 'Cancelled: the command and its processes were ended',
    })
    expect(presented?.terminal?.output).toBe(
      'up\n[Cancelled: the command and its processes were ended]\n',
    )
  })

  it('runs in the session workspace with a closed stdin', async () => {
    const result = await stack.call('bash', { command: 'pwd; cat; echo end' })
    expect(textOf(result)).toBe(`${stack.root}\nend\nexit code 0`)
  })
})

describe('the output cap', () => {
  it('keeps the head and the tail of a long output and names the file with all of it', async () => {
    const result = await stack.call('bash', { command: 'seq 1 100000' })
    const text = textOf(result)
    expect(text.startsWith('1\n2\n3\n')).toBe(true)
    expect(text.endsWith('99999\n100000\nexit code 0')).toBe(true)
    const note =
      /\[… (\d+) characters left out; the whole output \((\d+) characters\) is in (\S+) …\]/.exec(
        text,
      )
    expect(note).not.toBeNull()
    const [, left, total, file] = note as RegExpExecArray
    const whole = await readFile(file as string, 'utf8')
    expect(whole.length).toBe(Number(total))
    expect(whole.split('\n').at(-2)).toBe('100000')
    expect(text.length).toBeLessThan(30_000 + 200)
    // What the model got of the output: the text less the note (with its blank lines) and the ending.
    const kept = text.length - (note![0].length + 4) - 'exit code 0'.length
    expect(kept).toBe(30_000)
    expect(Number(left)).toBe(Number(total) - kept)
  })

  it('never cuts inside a character', async () => {
    // 4-byte characters (two UTF-16 units each), written well past the cap.
    const result = await stack.call('bash', {
      command: "for i in $(seq 1 2000); do printf '😀😀😀😀😀😀😀😀😀😀'; done",
    })
    const text = textOf(result)
    expect(text).not.toContain('\ufffd')
    expect(
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text),
    ).toBe(false)
  })
})

describe('live output', () => {
  it('reports output in batches while the command runs', async () => {
    const reports: { text: string; at: number }[] = []
    const began = Date.now()
    const report = (progress: ToolCallProgress) => {
      if (progress.type === 'output') reports.push({ text: progress.text, at: Date.now() - began })
    }
    await stack.call('bash', { command: 'echo one; sleep 0.4; echo two' }, { report })
    expect(reports.map((entry) => entry.text).join('')).toBe('one\ntwo\n')
    expect(reports[0]!.text).toBe('one\n')
    // The first line went out while the command slept, well before the second.
    expect(reports[1]!.at - reports[0]!.at).toBeGreaterThan(250)
  })

  it('coalesces a flood of writes into about ten reports a second', async () => {
    let count = 0
    const report = (progress: ToolCallProgress) => void (progress.type === 'output' && count++)
    const began = Date.now()
    await stack.call(
      'bash',
      { command: 'for i in $(seq 1 300); do echo $i; sleep 0.002; done' },
      { report },
    )
    const seconds = (Date.now() - began) / 1000
    expect(count).toBeLessThanOrEqual(Math.ceil(seconds * 20) + 2)
  })
})
