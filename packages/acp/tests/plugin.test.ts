import { client as acpClient } from '@agentclientprotocol/sdk'
import type { McpServer } from '@agentclientprotocol/sdk'
import { Context } from 'cordis'
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import Agents from '@deepseek-ai/dsh-agent'
import { ScriptedLlm } from '@deepseek-ai/dsh-llm'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import * as Acp from '../src/index'
import { streamPair } from './helpers/pipes'

describe('the acp plugin', () => {
  let workspace: string
  let root: Context

  beforeEach(async () => {
    workspace = await realpath(await mkdtemp(join(tmpdir(), 'dsh-acp-plugin-')))
    root = new Context()
    await root.plugin(ToolRegistry, {})
    await root.plugin(SystemPrompt, {})
    await root.plugin(ScriptedLlm, { script: { turns: [] } })
    await root.plugin(Agents, { maxSteps: 5 })
  })

  afterEach(async () => {
    await rm(workspace, { recursive: true, force: true })
  })

  it('provides ctx.acp with its configured agent info', async () => {
    await root.plugin(Acp, { agentInfo: { name: 'custom', version: '9.9.9', title: 'Custom' } })
    expect(root.acp.agentInfo).toEqual({ name: 'custom', version: '9.9.9', title: 'Custom' })
  })

  it('waits for its injected services before it provides ctx.acp', async () => {
    const bare = new Context()
    const fiber = bare.plugin(Acp)
    expect(bare.get('acp')).toBeUndefined()
    await fiber.dispose()
  })

  it('disposing it closes its connections, releases their agents and removes ctx.acp', async () => {
    const fiber = await root.plugin(Acp)
    const streams = streamPair()
    const handle = Acp.serveAcp(root, streams.agent)
    const client = acpClient().connect(streams.client)
    await client.agent.request('initialize', { protocolVersion: 1 })
    const { sessionId } = await client.agent.request('session/new', {
      cwd: workspace,
      mcpServers: [],
    })
    expect(root.agents.get(sessionId)).toBeDefined()
    await fiber.dispose()
    await handle.closed
    expect(root.agents.list()).toEqual([])
    expect(root.get('acp')).toBeUndefined()
    client.close()
  })

  it('a session opens to acp/session-open with its servers, and its closers run before its close is answered', async () => {
    await root.plugin(Acp, { mcpCapabilities: { http: true } })
    const opened: Acp.AcpSessionOpening[] = []
    const order: string[] = []
    root.on('acp/session-open', (session) => {
      order.push('opened')
      opened.push(session)
      session.onClose(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20))
        order.push('closer done')
      })
    })
    const streams = streamPair()
    Acp.serveAcp(root, streams.agent)
    const client = acpClient().connect(streams.client)
    const init = await client.agent.request('initialize', { protocolVersion: 1 })
    expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: false })
    const server: McpServer = { name: 'notes', command: '/bin/notes', args: [], env: [] }
    const { sessionId } = await client.agent.request('session/new', {
      cwd: workspace,
      mcpServers: [server],
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(opened.map((session) => [session.id, session.mcpServers])).toEqual([
      [sessionId, [server]],
    ])
    await client.agent.request('session/close', { sessionId })
    order.push('closed')
    expect(order).toEqual(['opened', 'closer done', 'closed'])
    client.close()
  })

  it('serveAcp without the plugin says the plugin is missing', () => {
    expect(() => Acp.serveAcp(root, streamPair().agent)).toThrow('the acp plugin is not active')
  })
})
