import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../src/index'
import type { ToolExecution, ToolExecutionResult } from '../src/index'
import { testExecution } from '../src/testing'
import { CodedError, makeContext, readLike } from './helpers/fixtures'

function call(name: string, args: unknown, extra: Partial<ToolExecution> = {}): ToolExecution {
  return testExecution(name, args, extra)
}

function throwing(thrown: unknown) {
  return defineTool({
    name: 'boom',
    description: 'Throws.',
    input: z.object({}),
    async execute() {
      throw thrown
    },
  })
}

async function withTools(...tools: Parameters<Context['tools']['register']>[0][]) {
  const ctx = await makeContext()
  for (const tool of tools) ctx.tools.register(tool)
  return ctx
}

describe('successful calls', () => {
  it('a tool gets its parsed args and the execution, and its string becomes one text block', async () => {
    const seen: unknown[] = []
    const tool = defineTool({
      name: 'echo',
      description: 'Echoes.',
      input: z.object({ text: z.string(), times: z.number().int().default(1) }),
      async execute(args, exec) {
        seen.push(args, exec.callId)
        return args.text.repeat(args.times)
      },
    })
    const ctx = await withTools(tool)
    const result = await ctx.tools.execute(call('echo', { text: 'ab' }))
    expect(result).toEqual({
      callId: 'call-1',
      content: [{ type: 'text', text: 'ab' }],
      isError: false,
    })
    expect(seen).toEqual([{ text: 'ab', times: 1 }, 'call-1'])
  })

  it('details stay beside the content and never inside it', async () => {
    const tool = defineTool({
      name: 'detailed',
      description: 'Has details.',
      input: z.object({}),
      async execute() {
        return { content: 'visible', details: { secret: 'for the ui only' } }
      },
    })
    const ctx = await withTools(tool)
    const result = await ctx.tools.execute(call('detailed', {}))
    expect(result.content).toEqual([{ type: 'text', text: 'visible' }])
    expect(result.details).toEqual({ secret: 'for the ui only' })
    expect(JSON.stringify(result.content)).not.toContain('secret')
  })

  it('text blocks are passed through and missing arguments count as an empty object', async () => {
    const tool = defineTool({
      name: 'blocks',
      description: 'Blocks.',
      input: z.object({}),
      async execute() {
        return [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ]
      },
    })
    const ctx = await withTools(tool)
    const result = await ctx.tools.execute(call('blocks', undefined))
    expect(result.content.map((block) => block.text)).toEqual(['a', 'b'])
    expect('details' in result).toBe(false)
  })

  it('an output of another shape is an error result with TOOL_INVALID_OUTPUT', async () => {
    const tool = defineTool({
      name: 'odd',
      description: 'Returns a number.',
      input: z.object({}),
      execute: async () => 42 as unknown as string,
    })
    const ctx = await withTools(tool)
    const result = await ctx.tools.execute(call('odd', {}))
    expect(result.isError).toBe(true)
    expect(result.error).toEqual({ name: 'ToolError', code: 'TOOL_INVALID_OUTPUT' })
    expect(result.content[0]?.text).toBe(
      'Error: Tool "odd" returned an invalid result (expected a string, text blocks, or { content, details, images }).',
    )
  })
})

describe('refused calls', () => {
  it('an unknown tool is an error result naming the available tools', async () => {
    const ctx = await withTools(readLike)
    const result = await ctx.tools.execute(call('raed', {}))
    expect(result).toEqual({
      callId: 'call-1',
      content: [{ type: 'text', text: 'Error: Unknown tool "raed". Available tools: read.' }],
      isError: true,
      error: { name: 'ToolError', code: 'TOOL_UNKNOWN' },
    })
  })

  it('an unknown tool with nothing registered says so', async () => {
    const ctx = await makeContext()
    const result = await ctx.tools.execute(call('read', {}))
    expect(result.content[0]?.text).toBe('Error: Unknown tool "read". Available tools: (none).')
  })

  it('bad arguments never reach the tool and are named field by field', async () => {
    let ran = false
    const ctx = await withTools({ ...readLike, execute: async () => ((ran = true), 'ran') })
    const result = await ctx.tools.execute(call('read', { file_path: 3, limit: 0 }))
    expect(ran).toBe(false)
    expect(result.error).toEqual({ name: 'ToolError', code: 'TOOL_INVALID_ARGUMENTS' })
    expect(result.content[0]?.text).toBe(
      'Error: Invalid arguments for "read": file_path: expected a string, got an integer; limit: must be a positive integer, got 0',
    )
  })

  it('a call whose signal already fired is TOOL_ABORTED and does not run', async () => {
    let ran = false
    const ctx = await withTools({ ...readLike, execute: async () => ((ran = true), 'ran') })
    const controller = new AbortController()
    controller.abort()
    const result = await ctx.tools.execute(
      call('read', { file_path: '/a' }, { signal: controller.signal }),
    )
    expect(ran).toBe(false)
    expect(result.error?.code).toBe('TOOL_ABORTED')
    expect(result.content[0]?.text).toBe(
      'Error: The call of "read" was cancelled before it started.',
    )
  })

  it('an uncoded throw after the signal fired is reported as TOOL_ABORTED', async () => {
    const controller = new AbortController()
    const tool = defineTool({
      name: 'slow',
      description: 'Aborts itself.',
      input: z.object({}),
      async execute() {
        controller.abort()
        throw new Error('stream closed')
      },
    })
    const ctx = await withTools(tool)
    const result = await ctx.tools.execute(call('slow', {}, { signal: controller.signal }))
    expect(result.error?.code).toBe('TOOL_ABORTED')
    expect(result.content[0]?.text).toBe(
      'Error: The call of "slow" was cancelled while it was running.',
    )
  })
})

describe('thrown errors', () => {
  it('a plain error becomes Error: message with no error code', async () => {
    const ctx = await withTools(throwing(new Error('disk on fire')))
    const result = await ctx.tools.execute(call('boom', {}))
    expect(result).toEqual({
      callId: 'call-1',
      content: [{ type: 'text', text: 'Error: disk on fire' }],
      isError: true,
    })
  })

  it('an error with a string code carries its name and code', async () => {
    const error = Object.assign(new Error('File changed since it was read.'), {
      name: 'FsError',
      code: 'FS_STALE_VERSION',
    })
    const ctx = await withTools(throwing(error))
    const result = await ctx.tools.execute(call('boom', {}))
    expect(result.content[0]?.text).toBe('Error: File changed since it was read.')
    expect(result.error).toEqual({ name: 'FsError', code: 'FS_STALE_VERSION' })
  })

  it('a numeric code is not reported as an error code', async () => {
    const ctx = await withTools(throwing(Object.assign(new Error('odd'), { code: 20 })))
    const result = await ctx.tools.execute(call('boom', {}))
    expect(result.error).toBeUndefined()
    expect(result.isError).toBe(true)
  })

  it('a thrown string or bare object still becomes a readable error result', async () => {
    const ctx = await withTools(throwing('just text'))
    expect((await ctx.tools.execute(call('boom', {}))).content[0]?.text).toBe('Error: just text')
    const bare = await withTools(throwing(Object.create(null)))
    expect((await bare.tools.execute(call('boom', {}))).content[0]?.text).toBe(
      'Error: Unknown error (object)',
    )
  })

  it('a synchronous throw from execute is caught like an async one', async () => {
    const tool = defineTool({
      name: 'sync',
      description: 'Throws synchronously.',
      input: z.object({}),
      execute: () => {
        throw new CodedError('MY_CODE', 'refused')
      },
    })
    const ctx = await withTools(tool)
    const result = await ctx.tools.execute(call('sync', {}))
    expect(result.error).toEqual({ name: 'CodedError', code: 'MY_CODE' })
  })
})

describe('the tools/execute waterfall', () => {
  it('a listener wraps a call and sees its result', async () => {
    const ctx = await withTools(readLike)
    const order: string[] = []
    ctx.on('tools/execute', async (exec, next) => {
      order.push(`before ${exec.name}`)
      const result = await next()
      order.push('after')
      return { ...result, content: [...result.content, { type: 'text', text: 'wrapped' }] }
    })
    const result = await ctx.tools.execute(call('read', { file_path: '/a' }))
    expect(order).toEqual(['before read', 'after'])
    expect(result.content.map((block) => block.text)).toEqual(['read /a from 1', 'wrapped'])
  })

  it('a listener that answers without next vetoes the call', async () => {
    let ran = false
    const ctx = await withTools({ ...readLike, execute: async () => ((ran = true), 'ran') })
    ctx.on('tools/execute', async (exec): Promise<ToolExecutionResult> => ({
      callId: exec.callId,
      content: [{ type: 'text', text: 'Error: The user rejected this call.' }],
      isError: true,
      error: { name: 'PermissionError', code: 'PERMISSION_REJECTED' },
    }))
    const result = await ctx.tools.execute(call('read', { file_path: '/a' }))
    expect(ran).toBe(false)
    expect(result.error?.code).toBe('PERMISSION_REJECTED')
  })

  it('reports the call started once every listener let it through, and not when one vetoes', async () => {
    const ctx = await withTools(readLike)
    const progress: string[] = []
    const report = (event: { type: string }) => progress.push(event.type)
    let veto = false
    ctx.on('tools/execute', async (exec, next) => {
      progress.push('listener')
      return veto ? { callId: exec.callId, content: [], isError: true } : next()
    })
    await ctx.tools.execute({ ...call('read', { file_path: '/a' }), report })
    expect(progress).toEqual(['listener', 'started'])
    veto = true
    await ctx.tools.execute({ ...call('read', { file_path: '/a' }), report })
    expect(progress).toEqual(['listener', 'started', 'listener'])
  })

  it('a listener that throws vetoes the call with its error', async () => {
    const ctx = await withTools(readLike)
    ctx.on('tools/execute', () => {
      throw new CodedError('DENIED', 'Not allowed here.')
    })
    const result = await ctx.tools.execute(call('read', { file_path: '/a' }))
    expect(result.content[0]?.text).toBe('Error: Not allowed here.')
    expect(result.error).toEqual({ name: 'CodedError', code: 'DENIED' })
  })

  it('a listener returning something that is not a result gives TOOL_INVALID_OUTPUT', async () => {
    const ctx = await withTools(readLike)
    ctx.on('tools/execute', (async () => undefined) as never)
    const result = await ctx.tools.execute(call('read', { file_path: '/a' }))
    expect(result.error?.code).toBe('TOOL_INVALID_OUTPUT')
    expect(result.content[0]?.text).toBe(
      'Error: A tools/execute listener returned an invalid result for "read".',
    )
  })

  it('listeners see only calls that reach a tool', async () => {
    const ctx = await withTools(readLike)
    const seen: string[] = []
    ctx.on('tools/execute', (exec, next) => (seen.push(exec.name), next()))
    await ctx.tools.execute(call('missing', {}))
    await ctx.tools.execute(call('read', { file_path: 1 }))
    await ctx.tools.execute(call('read', { file_path: '/a' }))
    expect(seen).toEqual(['read'])
  })

  it('a listener removed with its plugin no longer wraps calls', async () => {
    const ctx = await withTools(readLike)
    const fiber = await ctx.plugin((inner: Context) => {
      inner.on('tools/execute', async (exec) => ({
        callId: exec.callId,
        content: [],
        isError: true,
      }))
    })
    expect((await ctx.tools.execute(call('read', { file_path: '/a' }))).isError).toBe(true)
    await fiber.dispose()
    expect((await ctx.tools.execute(call('read', { file_path: '/a' }))).isError).toBe(false)
  })
})
