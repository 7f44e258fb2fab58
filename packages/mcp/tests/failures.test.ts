// What goes wrong with a server, and how the session goes on: a call past the timeout and a
// cancelled call are cancelled on the server; a server that does not start or that crashes is
// told to the person once, with what it printed, and its tools go; and a server over
// streamable HTTP on 127.0.0.1, with and without the header it wants.
import { getEventListeners } from 'node:events'
import { afterEach, describe, expect, it } from 'vitest'
import { startHttpServer } from './fixtures/http-server.mjs'
import type { McpStack } from './helpers/stack'
import { eventually, isRunning, makeStack, serverPids, stdioServer } from './helpers/stack'

let stack: McpStack | undefined

afterEach(async () => {
  await stack?.cleanup()
  stack = undefined
})

const FULL = { mode: 'full-access' }

describe('slow calls', () => {
  it('a call past the timeout fails with MCP_TIMEOUT and is cancelled on the server', async () => {
    stack = await makeStack({ callTimeoutMs: 300 })
    await stack.open('s1').ready
    const started = performance.now()
    const result = await stack.call('s1', 'mcp__notes__slow', { ms: 20_000 })
    expect(performance.now() - started).toBeLessThan(5000)
    expect(result).toMatchObject({ isError: true, error: { code: 'MCP_TIMEOUT' } })
    expect(result.content[0]?.text).toContain('gave no answer within 0.3 s')
    await eventually(async () => (await stack!.logged()).includes('slow cancelled'))
    const after = await stack.call('s1', 'mcp__notes__lookup', { word: 'still' })
    expect(after.content[0]?.text).toMatch(/^still: a word/)
  })

  it('an aborted call is cancelled on the server and reported cancelled', async () => {
    stack = await makeStack()
    await stack.open('s1').ready
    const controller = new AbortController()
    const call = stack.call('s1', 'mcp__notes__slow', { ms: 20_000 }, { signal: controller.signal })
    await eventually(async () => (await stack!.logged()).includes('slow started'))
    controller.abort()
    const result = await call
    expect(result).toMatchObject({ isError: true, error: { code: 'TOOL_ABORTED' } })
    await eventually(async () => (await stack!.logged()).includes('slow cancelled'))
  })

  it('a call leaves no listener on the signal it was given, however many share it', async () => {
    stack = await makeStack()
    await stack.open('s1').ready
    const turn = new AbortController()
    const warnings: string[] = []
    const onWarning = (warning: Error) => warnings.push(warning.name)
    process.on('warning', onWarning)
    try {
      for (let n = 0; n < 12; n++) {
        const result = await stack.call(
          's1',
          'mcp__notes__lookup',
          { word: `w${n}` },
          {
            signal: turn.signal,
          },
        )
        expect(result.isError).toBe(false)
        expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0)
      }
    } finally {
      process.off('warning', onWarning)
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning')
  })
})

describe('a server that fails', () => {
  it('a server that does not start is told once with its stderr and the session has no tools', async () => {
    stack = await makeStack()
    const handle = stack.open('s1', [stdioServer(stack, { MCP_TEST_FAIL_START: '1' })])
    await handle.ready
    await eventually(() => stack!.notices.length > 0)
    expect(stack.notices).toEqual([
      {
        title: 'MCP server "notes" did not start.',
        description: expect.stringContaining(
          'It printed on stderr:\ncannot open the notes database\nat startup',
        ),
        severity: 'error',
      },
    ])
    expect(stack.ctx.tools.names('s1')).toEqual([])
    expect(handle.up()).toEqual([])
    expect(stack.ctx.tools.settled('s1')).toBeUndefined()
  })

  it('a command that does not exist is told with the reason', async () => {
    stack = await makeStack()
    await stack.open('s1', [{ name: 'ghost', command: '/nonexistent/mcp-server' }]).ready
    await eventually(() => stack!.notices.length > 0)
    expect(stack.notices[0]?.title).toBe('MCP server "ghost" did not start.')
    expect(stack.notices[0]?.description).toContain('ENOENT')
  })

  it('a crash fails the call clearly, is told once, and takes only that server tools', async () => {
    stack = await makeStack()
    const other = { ...stdioServer(stack), name: 'other' }
    await stack.open('s1', [stdioServer(stack), other]).ready
    const pids = await serverPids(stack)
    const result = await stack.call('s1', 'mcp__notes__crash', {}, FULL)
    expect(result).toMatchObject({ isError: true, error: { code: 'MCP_SERVER_GONE' } })
    expect(result.content[0]?.text).toContain('MCP server "notes" stopped')
    await eventually(() => stack!.notices.length > 0)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(stack.notices).toHaveLength(1)
    expect(stack.notices[0]?.title).toBe('MCP server "notes" stopped.')
    expect(stack.notices[0]?.description).toContain('boom: the notes server crashed\nsecond line')
    expect(stack.ctx.tools.names('s1').every((name) => name.startsWith('mcp__other__'))).toBe(true)
    const gone = await stack.call('s1', 'mcp__notes__lookup', { word: 'x' }, FULL)
    expect(gone.error?.code).toBe('TOOL_UNKNOWN')
    const kept = await stack.call('s1', 'mcp__other__lookup', { word: 'x' }, FULL)
    expect(kept.isError).toBe(false)
    const { system } = stack.ctx.systemPrompt.assemble(undefined, 's1')
    expect(system).not.toContain('- notes:')
    expect(system).toContain('Stopped during this session, their tools are gone: notes.')
    expect(pids.filter(isRunning)).toHaveLength(1)
  })
})

describe('streamable http', () => {
  it('a server over http with its headers offers its tools and runs them', async () => {
    const http = await startHttpServer()
    try {
      stack = await makeStack()
      const server = {
        name: 'web',
        transport: 'http' as const,
        url: http.url,
        headers: { 'x-token': 'secret' },
      }
      await stack.open('s1', [server]).ready
      expect(stack.notices).toEqual([])
      expect(stack.ctx.tools.names('s1')).toContain('mcp__web__lookup')
      const result = await stack.call('s1', 'mcp__web__lookup', { word: 'web' })
      expect(result.content[0]?.text).toMatch(/^web: a word/)
      await stack.cleanup()
      stack = undefined
    } finally {
      await http.close()
    }
  })

  it('an http server that refuses the connection is told and the session goes on', async () => {
    const http = await startHttpServer()
    try {
      stack = await makeStack()
      await stack.open('s1', [{ name: 'web', transport: 'http', url: http.url }]).ready
      await eventually(() => stack!.notices.length > 0)
      expect(stack.notices[0]?.title).toBe('MCP server "web" did not start.')
      expect(stack.ctx.tools.names('s1')).toEqual([])
      await stack.cleanup()
      stack = undefined
    } finally {
      await http.close()
    }
  })
})
