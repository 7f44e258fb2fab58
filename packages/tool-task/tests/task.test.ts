// The task tool over the real agent host, permission layer and registry, with a scripted model
// (parent and child share it: the parent's call, the child's turns, the parent's answer): a
// waited task whose child reads and reports; the report in the parent's next request; the
// child's request carries no parent history; an explorer's write is refused unasked, a general
// delegate's write is asked on the parent's channel; a cancel of the parent ends the child; an
// explorer task is a read, a general or project-type task is in the task concurrency group.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from 'cordis'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import Agents from '@deepseek-ai/dsh-agent'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import type { LlmModelInfo, LlmRequest, LlmScript, LlmStreamEvent } from '@deepseek-ai/dsh-llm'
import * as Permission from '@deepseek-ai/dsh-permission'
import { MemoryFileSystem } from '@deepseek-ai/dsh-fs/testing'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry, { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolNotice, ToolPermissionRequest, ToolSessionChannels } from '@deepseek-ai/dsh-tools'
import * as ToolTask from '../src/index'

class RecordingLlm extends ScriptedLlm {
  readonly requests: LlmRequest[] = []

  override stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    this.requests.push({ ...request, messages: [...request.messages] })
    return super.stream(request)
  }
}

/** Each answer reports 1000 input and 100 output tokens, at 1 and 10 USD per million. */
class PricedLlm extends RecordingLlm {
  override modelInfo(model?: string): LlmModelInfo {
    const prices = {
      currency: 'USD',
      inputPerMillion: 1,
      cachedInputPerMillion: 0,
      outputPerMillion: 10,
    }
    return { ...super.modelInfo(model), prices }
  }

  override async *stream(request: LlmRequest): AsyncIterable<LlmStreamEvent> {
    for await (const event of super.stream(request)) {
      yield event.type === 'finish'
        ? { ...event, usage: { inputTokens: 1000, outputTokens: 100 } }
        : event
    }
  }
}

const disposers: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(disposers.splice(0).map((dispose) => dispose()))
})

async function host(turns: LlmScript['turns'], Llm: typeof RecordingLlm = RecordingLlm, cwd = '/') {
  const ctx = new Context()
  const ran: string[] = []
  await ctx.plugin(MemoryFileSystem, { cwd: '/' })
  await ctx.plugin(ToolRegistry)
  await ctx.plugin(SystemPrompt)
  await ctx.plugin(Permission, { defaultMode: 'ask' })
  for (const [name, effect] of [
    ['look', 'read'],
    ['change', 'write'],
  ] as const) {
    ctx.tools.register(
      defineTool({
        name,
        description: name,
        input: z.object({ what: z.string() }),
        execute: async (args) => {
          ran.push(`${name} ${args.what}`)
          return `${name}: ${args.what} done`
        },
        presentCall: (args) => ({ title: `${name} ${args.what}`, kind: 'other' }),
        access: (_args, exec) => ({ effect, scope: [exec.agent!.session.header.cwd] }),
      }),
    )
  }
  await ctx.plugin(Llm, { script: { turns } })
  const fiber = await ctx.plugin(Agents)
  await ctx.plugin(ToolTask)
  disposers.push(() => fiber.dispose())
  const asked: ToolPermissionRequest[] = []
  const notices: ToolNotice[] = []
  const channels: ToolSessionChannels = {
    ask: async (request) => {
      asked.push(request)
      return { outcome: 'selected', optionId: 'allow_once' }
    },
    notice: (notice) => void notices.push(notice),
  }
  const agent = ctx.agents.create({ cwd, channels })
  return { ctx, agent, ran, asked, notices, llm: ctx.llm as RecordingLlm }
}

const task = (prompt: string, agentType = 'general') => ({
  id: 't1',
  name: 'task',
  arguments: { description: 'look around', prompt, agent_type: agentType },
})

describe('a waited task', () => {
  it("returns the child's report, which the parent's next request holds; the child starts fresh", async () => {
    const { agent, ran, llm } = await host([
      { text: 'Delegating.', toolCalls: [task('Find the loader.', 'explorer')] },
      { toolCalls: [{ id: 'c1', name: 'look', arguments: { what: 'src' } }] },
      { text: 'The loader is in src/load.ts.' },
      { text: 'Thanks.' },
    ])
    expect((await agent.send('where is the loader?')).reason).toBe('completed')
    expect(ran).toEqual(['look src'])
    const [first, child, , last] = llm.requests
    expect(first!.messages.some((m) => m.content.includes('where is the loader?'))).toBe(true)
    expect(child!.messages.map((m) => m.content)).toEqual(['Find the loader.'])
    expect(child!.system).toContain('You are a delegate')
    const report = last!.messages.find((m) => m.role === 'tool')
    expect(report?.content).toBe('The loader is in src/load.ts.')
    const result = agent.session.events.find((e) => e.type === 'tool/result')
    expect(result?.type === 'tool/result' && result.presentation?.content).toEqual([
      { type: 'text', text: '✓ look src\n\nThe loader is in src/load.ts.' },
    ])
  })

  it("an explorer's change is refused unasked; a general delegate's is asked on the parent's channel", async () => {
    const change = { id: 'c1', name: 'change', arguments: { what: 'a.txt' } }
    const { agent, ran, asked } = await host([
      { toolCalls: [task('Change a.txt.', 'explorer')] },
      { toolCalls: [change] },
      { text: 'I could not.' },
      { toolCalls: [{ ...task('Change a.txt.'), id: 't2' }] },
      { toolCalls: [change] },
      { text: 'Changed.' },
      { text: 'Done.' },
    ])
    await agent.send('go')
    expect(ran).toEqual(['change a.txt'])
    expect(asked.map((request) => request.exec.name)).toEqual(['change'])
    expect(asked[0]!.exec.name).toBe('change')
    expect(asked[0]!.exec.agent?.session.header.parent).toBe(agent.session.header.id)
  })

  it('a cancel of the parent ends the child and the task result says so', async () => {
    const { ctx, agent } = await host([
      { toolCalls: [task('Wait.')] },
      { toolCalls: [{ id: 'h1', name: 'hang', arguments: {} }] },
      { text: 'never' },
    ])
    let started = () => {}
    const hanging = new Promise<void>((resolve) => (started = resolve))
    ctx.tools.register(
      defineTool({
        name: 'hang',
        description: 'hangs',
        input: z.object({}),
        execute: (_args, exec) =>
          new Promise((_resolve, reject) => {
            started()
            exec.signal?.addEventListener('abort', () => reject(new Error('aborted')))
          }),
        access: () => ({ effect: 'none' }),
      }),
    )
    const turn = agent.send('go')
    await hanging
    agent.cancel()
    expect((await turn).reason).toBe('cancelled')
    const result = agent.session.events.find((e) => e.type === 'tool/result')
    expect(result?.type === 'tool/result' && result.isError).toBe(true)
  })

  it("counts the delegate's usage toward the session's cost", async () => {
    const { agent } = await host(
      [
        { toolCalls: [task('Look.', 'explorer')] },
        { toolCalls: [{ id: 'c1', name: 'look', arguments: { what: 'src' } }] },
        { text: 'Seen.' },
        { text: 'Done.' },
      ],
      PricedLlm,
    )
    await agent.send('go')
    const usage = agent.session.events.flatMap((e) => (e.type === 'context/usage' ? [e] : []))
    // The parent's two answers, then the delegate's two: four answers of 0.002 USD each.
    expect(usage).toHaveLength(2)
    expect(usage[0]!.cost!.amount).toBeCloseTo(0.002, 12)
    expect(usage[1]!.cost).toEqual({ currency: 'USD', amount: expect.closeTo(0.008, 12) })
  })
})

describe('side by side', () => {
  it('an explorer task is a read; a general or project-type task changes nothing itself and joins the task group of four', async () => {
    const { ctx, agent } = await host([])
    const access = (agentType: string) =>
      ctx.tools.access({
        callId: 't',
        name: 'task',
        arguments: task('Go.', agentType).arguments,
        session: agent.session,
        agent,
      })
    expect(await access('explorer')).toEqual({ effect: 'read', scope: ['/'] })
    const delegate = { effect: 'none', concurrency: { group: 'task', limit: 4 } }
    expect(await access('general')).toEqual(delegate)
    expect(await access('reviewer')).toEqual(delegate)
  })
})

describe('project types', () => {
  async function project(files: Record<string, string>) {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'dsh-task-')))
    disposers.push(() => rm(dir, { recursive: true, force: true }))
    await mkdir(join(dir, '.agents', 'agents'), { recursive: true })
    for (const [name, text] of Object.entries(files)) {
      await writeFile(join(dir, '.agents', 'agents', name), text)
    }
    return dir
  }

  it('a project type gives its prompt and limits its tools; invalid files are told once and skipped', async () => {
    const dir = await project({
      'reviewer.md':
        '---\nname: reviewer\ndescription: Reviews code\ntools:\n  - look\n---\nYou review.\n',
      'broken.md': 'no front matter\n',
      'loose.md': '---\nname: loose\ndescription: x\ntools: look\n---\nBody.\n',
    })
    const { agent, ran, notices, llm } = await host(
      [
        { toolCalls: [task('Review.', 'reviewer')] },
        {
          toolCalls: [
            { id: 'c1', name: 'look', arguments: { what: 'src' } },
            { id: 'c2', name: 'change', arguments: { what: 'src' } },
          ],
        },
        { text: 'Reviewed.' },
        { toolCalls: [{ ...task('Again.', 'loose'), id: 't2' }] },
        { text: 'Done.' },
      ],
      RecordingLlm,
      dir,
    )
    await agent.send('review')
    expect(ran).toEqual(['look src'])
    expect(llm.requests[1]!.system).toContain('You review.')
    const results = agent.session.events.flatMap((e) => (e.type === 'tool/result' ? [e] : []))
    const refused = llm.requests[2]!.messages.find(
      (m) => m.role === 'tool' && m.toolCallId === 'c2',
    )
    expect(refused?.content).toContain(
      'Your delegate type may not call "change"; it may call: look.',
    )
    const unknown = results.find((r) => r.callId === 't2')
    expect(unknown?.error?.code).toBe('TASK_UNKNOWN_TYPE')
    expect(unknown?.content[0]!.text).toContain('reviewer (Reviews code)')
    // Each skipped file is told once, though two tasks read the types.
    expect(notices.map((n) => [n.title, n.description])).toEqual([
      [
        `Delegate type file ${join(dir, '.agents/agents/broken.md')} was skipped`,
        'it does not start with a `---` front matter line.',
      ],
      [
        `Delegate type file ${join(dir, '.agents/agents/loose.md')} was skipped`,
        '`tools` must be a list, e.g. `[read, grep]`.',
      ],
    ])
  })
})

describe('background tasks', () => {
  it('past four running in a session a start is refused with TASK_LIMIT, the limit said', async () => {
    const calls = [1, 2, 3, 4, 5, 6].map((n) => ({
      id: `b${n}`,
      name: 'task',
      arguments: { description: `job ${n}`, prompt: 'Hold on.', run_in_background: true },
    }))
    const { ctx, agent, llm } = await host([])
    let held = 0
    ctx.tools.register(
      defineTool({
        name: 'hold',
        description: 'Runs until aborted.',
        input: z.object({}),
        execute: (_args, exec) =>
          new Promise<string>((_resolve, reject) => {
            held += 1
            exec.signal?.addEventListener('abort', () => reject(new Error('aborted')))
          }),
        access: () => ({ effect: 'none' }),
      }),
    )
    // Delegates hold; the parent starts six, then ends its turn once it read the results.
    llm.stream = (request) => {
      llm.requests.push(request)
      const delegate = request.system?.includes('You are a delegate') === true
      const answered = request.messages.some((m) => m.role === 'tool')
      const turn = delegate ? [{ id: 'h', name: 'hold', arguments: {} }] : answered ? [] : calls
      return (async function* (): AsyncGenerator<LlmStreamEvent> {
        for (const call of turn) {
          const args = JSON.stringify(call.arguments)
          yield { type: 'tool-call', id: call.id, name: call.name, arguments: args }
        }
        if (turn.length === 0) yield { type: 'text-delta', text: 'Started what I could.' }
        yield { type: 'finish', reason: turn.length > 0 ? 'tool-calls' : 'stop' }
      })()
    }
    const end = await agent.send('start six')
    expect(end.reason).toBe('completed')
    const results = agent.session.events.flatMap((e) => (e.type === 'tool/result' ? [e] : []))
    const refused = results.filter((e) => e.isError)
    expect(results).toHaveLength(6)
    expect(refused.map((e) => e.error?.code)).toEqual(['TASK_LIMIT', 'TASK_LIMIT'])
    const said = refused[0]!.content.map((block) => ('text' in block ? block.text : '')).join('')
    expect(said).toContain('the most it may have (4)')
    expect(said).toContain('job_kill')
    await vi.waitFor(() => expect(held).toBe(4))
    expect(ctx.tools.get('task')?.description).toContain('at most 4 background tasks')
  })
})
