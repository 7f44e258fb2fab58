// ctx.mcp with the test server as a real child process over stdio: opening in the background,
// the tools of one session with the server's schema and cards, results for the model and the
// card, permission by the server's hints, the tool list changing, and closing every child.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { McpStack } from './helpers/stack'
import {
  eventually,
  grandchildPid,
  isRunning,
  makeStack,
  serverPids,
  stdioServer,
} from './helpers/stack'

let stack: McpStack | undefined

afterEach(async () => {
  await stack?.cleanup()
  stack = undefined
})

describe('opening a session', () => {
  it('open returns before the server is up and the tools arrive for that session only', async () => {
    stack = await makeStack()
    const started = performance.now()
    const handle = stack.open('s1')
    expect(performance.now() - started).toBeLessThan(100)
    expect(stack.ctx.tools.settled('s1')).toBeInstanceOf(Promise)
    await stack.ctx.tools.settled('s1')
    expect(stack.ctx.tools.names('s1')).toEqual([
      'mcp__notes__lookup',
      'mcp__notes__write_note',
      'mcp__notes__erase',
      'mcp__notes__slow',
      'mcp__notes__fail',
      'mcp__notes__crash',
      'mcp__notes__grow',
    ])
    expect(stack.ctx.tools.names('s2')).toEqual([])
    expect(handle.up()).toEqual([
      {
        name: 'notes',
        tools: stack.ctx.tools.names('s1'),
        instructions: 'Notes live in note.txt.\nLook a word up before you write it down.',
      },
    ])
  })

  it('the model sees the server json schema and a section naming the server', async () => {
    stack = await makeStack()
    await stack.open('s1').ready
    const prompt = stack.ctx.systemPrompt.assemble(undefined, 's1')
    const lookup = prompt.tools.find((tool) => tool.name === 'mcp__notes__lookup')
    expect(lookup?.description).toBe('Looks a word up.')
    expect(lookup?.parameters).toMatchObject({
      type: 'object',
      properties: { word: { type: 'string' } },
      required: ['word'],
    })
    expect(prompt.system).toContain('# MCP servers')
    expect(prompt.system).toContain('- notes: mcp__notes__lookup, mcp__notes__write_note')
    expect(stack.ctx.systemPrompt.assemble(undefined, 's2').system).not.toContain('MCP')
  })

  it('a malformed server entry is refused with a type error naming it', async () => {
    stack = await makeStack()
    expect(() => stack?.open('s1', [{ name: 'x', transport: 'http', url: 'ftp://x' }])).toThrow(
      /MCP server 1 is malformed: url/,
    )
    expect(() => stack?.open('s1', [{ name: '', command: 'x' }])).toThrow(TypeError)
  })
})

describe('calls and cards', () => {
  it('cards take the tool title or server and tool, and the kind from the hints', async () => {
    stack = await makeStack()
    await stack.open('s1').ready
    const card = (name: string) => stack?.ctx.tools.presentCall(name, {}, { session: 's1' })
    expect(card('mcp__notes__lookup')).toEqual({ title: 'Look up a word', kind: 'read' })
    // Destructive but not deleting (it overwrites): edit; it says it erases: delete.
    expect(card('mcp__notes__write_note')).toEqual({ title: 'Write a note', kind: 'edit' })
    expect(card('mcp__notes__erase')).toEqual({ title: 'notes: erase', kind: 'delete' })
  })

  it("a call sends a progressToken and the server's progress reaches the card while it runs", async () => {
    stack = await makeStack()
    await stack.open('s1').ready
    const statuses: string[] = []
    const report = (progress: { type: string; text?: string }) => {
      if (progress.type === 'status') statuses.push(progress.text ?? '')
    }
    const result = await stack.call('s1', 'mcp__notes__slow', { ms: 5 }, { report })
    expect(result.content[0]?.text).toBe('done waiting')
    expect(statuses).toEqual(['1 of 2: waiting'])
  })

  it("the server's instructions reach the session's prompt section", async () => {
    stack = await makeStack()
    await stack.open('s1').ready
    const system = stack.ctx.systemPrompt.assemble(undefined, 's1').system
    expect(system).toContain(
      '  Its instructions: Notes live in note.txt.\n  Look a word up before you write it down.',
    )
  })

  it('the model gets the text and the card the text, the image, the link and the structured content', async () => {
    stack = await makeStack()
    await stack.open('s1').ready
    const result = await stack.call('s1', 'mcp__notes__lookup', { word: 'cat' })
    expect(result.isError).toBe(false)
    expect(result.content[0]?.text).toBe(
      'cat: a word\n[an image (image/png) was shown to the person]\n[resource link: cat <https://example.test/words/cat>]',
    )
    const card = stack.ctx.tools.presentResult('mcp__notes__lookup', { word: 'cat' }, result, {
      session: 's1',
    })
    expect(card?.content).toEqual([
      { type: 'text', text: 'cat: a word' },
      { type: 'image', data: expect.stringMatching(/^iVBOR/), mimeType: 'image/png' },
      { type: 'link', uri: 'https://example.test/words/cat', name: 'cat' },
      { type: 'text', text: JSON.stringify({ word: 'cat', meaning: 'a word' }, null, 2) },
    ])
    expect(card?.title).toBe('Look up a word')
  })

  it('an isError result fails the call with the server text and MCP_TOOL_ERROR', async () => {
    stack = await makeStack()
    await stack.open('s1').ready
    const result = await stack.call('s1', 'mcp__notes__fail', {}, { mode: 'full-access' })
    expect(result).toMatchObject({ isError: true, error: { code: 'MCP_TOOL_ERROR' } })
    expect(result.content[0]?.text).toBe('Error: the database is locked')
  })

  it('a changed tool list is listed again', async () => {
    stack = await makeStack()
    await stack.open('s1').ready
    await stack.call('s1', 'mcp__notes__grow', {}, { mode: 'full-access' })
    await eventually(() => stack?.ctx.tools.names('s1').includes('mcp__notes__added') === true)
    const result = await stack.call('s1', 'mcp__notes__added', {}, { mode: 'full-access' })
    expect(result.content[0]?.text).toBe('added tool ran')
    expect(stack.ctx.systemPrompt.assemble(undefined, 's1').system).toContain('mcp__notes__added')
  })
})

describe('permission by the hints', () => {
  it('a read-only tool runs unasked in every mode', async () => {
    stack = await makeStack()
    await stack.open('s1').ready
    for (const mode of ['ask', 'auto-edit', 'read-only', 'full-access']) {
      const result = await stack.call('s1', 'mcp__notes__lookup', { word: 'a' }, { mode })
      expect(result.isError).toBe(false)
    }
    expect(stack.asked).toEqual([])
  })

  it('a writing tool is asked in ask and auto-edit, refused in read-only, run in full-access', async () => {
    stack = await makeStack()
    await stack.open('s1').ready
    const write = (mode: string) =>
      stack!.call('s1', 'mcp__notes__write_note', { text: mode }, { mode })
    expect((await write('ask')).isError).toBe(false)
    expect(stack.asked.map((request) => request.presentation.title)).toEqual(['Write a note'])
    expect(stack.asked[0]?.options.map((option) => option.name)).toContain(
      'Always allow Write a note (notes) in this session',
    )
    expect((await write('auto-edit')).isError).toBe(false)
    expect(stack.asked).toHaveLength(2)
    const refused = await write('read-only')
    expect(refused).toMatchObject({ isError: true, error: { code: 'PERMISSION_DENIED' } })
    expect(await readFile(join(stack.cwd, 'note.txt'), 'utf8')).toBe('auto-edit')
    expect((await write('full-access')).isError).toBe(false)
    expect(stack.asked).toHaveLength(2)
  })

  it('always allowing a tool covers that tool of that server for the session only', async () => {
    stack = await makeStack()
    await Promise.all([stack.open('s1').ready, stack.open('s2').ready])
    stack.answer = 'allow_always'
    const write = (id: string, name = 'mcp__notes__write_note') =>
      stack!.call(id, name, { text: id }, { mode: 'ask' })
    await write('s1')
    await write('s1')
    expect(stack.asked).toHaveLength(1)
    await write('s1', 'mcp__notes__erase')
    await write('s2')
    expect(stack.asked.map((request) => request.presentation.title)).toEqual([
      'Write a note',
      'notes: erase',
      'Write a note',
    ])
  })
})

describe('closing', () => {
  it('closing the session kills its server and removes its tools and section', async () => {
    stack = await makeStack()
    const handle = stack.open('s1')
    await handle.ready
    const [pid] = await serverPids(stack)
    expect(pid !== undefined && isRunning(pid)).toBe(true)
    await handle.close()
    expect(isRunning(pid!)).toBe(false)
    expect(stack.ctx.tools.names('s1')).toEqual([])
    expect(stack.ctx.systemPrompt.assemble(undefined, 's1').system).toBe('')
    expect(stack.ctx.mcp.size).toBe(0)
  })

  it('closing the session ends what its server started too, its whole process group', async () => {
    stack = await makeStack()
    const handle = stack.open('s1', [stdioServer(stack, { MCP_TEST_FORK: '1' })])
    await handle.ready
    const [pid] = await serverPids(stack)
    const grandchild = await grandchildPid(stack)
    expect(isRunning(grandchild)).toBe(true)
    await handle.close()
    expect(isRunning(pid!)).toBe(false)
    await eventually(() => !isRunning(grandchild), 3000)
  })

  it('closing the session ends a child that left the server’s group and ignores SIGTERM', async () => {
    stack = await makeStack()
    const handle = stack.open('s1', [stdioServer(stack, { MCP_TEST_SETSID: '1' })])
    await handle.ready
    const detached = await grandchildPid(stack, 'setsid')
    expect(isRunning(detached)).toBe(true)
    await handle.close()
    await eventually(() => !isRunning(detached), 3000)
  })

  it('disposing the plugin ends a stubborn server’s setsid child too', async () => {
    stack = await makeStack()
    const env = { MCP_TEST_SETSID: '1', MCP_TEST_STUBBORN: '1' }
    await stack.open('s1', [stdioServer(stack, env)]).ready
    const detached = await grandchildPid(stack, 'setsid')
    await stack.cleanup()
    stack = undefined
    await eventually(() => !isRunning(detached), 3000)
  })

  it('a server that outlives the end of its stdin is ended with a signal', async () => {
    stack = await makeStack()
    const handle = stack.open('s1', [stdioServer(stack, { MCP_TEST_STUBBORN: '1' })])
    await handle.ready
    const [pid] = await serverPids(stack)
    const started = performance.now()
    await handle.close()
    expect(isRunning(pid!)).toBe(false)
    expect(performance.now() - started).toBeLessThan(1500)
  })

  it('disposing the plugin closes every session and kills every server', async () => {
    stack = await makeStack()
    await Promise.all([stack.open('s1').ready, stack.open('s2').ready])
    const pids = await serverPids(stack)
    expect(pids).toHaveLength(2)
    const mcp = stack.ctx.mcp
    await stack.cleanup()
    stack = undefined
    expect(pids.filter(isRunning)).toEqual([])
    expect(mcp.size).toBe(0)
  })

  it('a session closed while its server starts leaves no process', async () => {
    stack = await makeStack()
    const handle = stack.open('s1')
    await handle.close()
    expect(stack.ctx.tools.settled('s1')).toBeUndefined()
    await handle.ready
    const pids = await serverPids(stack)
    expect(pids.filter(isRunning)).toEqual([])
    expect(stack.ctx.tools.names('s1')).toEqual([])
  })
})
