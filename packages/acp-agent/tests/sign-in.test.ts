// Signing in from the editor. Over the BUILT bin: the methods `initialize` lists with and
// without the client's terminal-auth capability (as Zed and the ACP registry's check ask), and
// DeepSeek's server without a key refusing session/new and /load with auth_required (before any
// request: no network). In process, over the SDK's client on real streams: a key stored while
// the agent runs (what the terminal login does) lets `authenticate` and the next session/new
// through without a restart, and `logout` takes it away.
import { join } from 'node:path'
import { Context } from 'cordis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ndJsonStream } from '@agentclientprotocol/sdk'
import type { ClientCapabilities } from '@agentclientprotocol/sdk'
import { FramePipes, HarnessClient, assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { loadLlmScript } from '@deepseek-ai/dsh-llm'
import { serverSignIn } from '../src/auth/app-auth'
import { storeKey } from '../src/auth/credentials'
import { startDsh } from '../src/index'
import { connectBin, finishBin } from './helpers/bin-client'
import { BIN, ensureBuilt } from './helpers/build'
import { QUIET_MODEL, startBin } from './helpers/spawn-bin'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-sign-in')

beforeAll(() => ensureBuilt(), 420_000)

describe('initialize over the bin', () => {
  const initialize = async (clientCapabilities: ClientCapabilities) => {
    const bin = startBin([], await tempDir('home'))
    const client = new HarnessClient(bin.stream)
    const init = await client.connection.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities,
    })
    await finishBin(bin, client)
    return init
  }

  it('a client with auth.terminal gets the terminal login whose args the client appends', async () => {
    const init = await initialize({ auth: { terminal: true } })
    expect(init.authMethods).toEqual([
      {
        id: 'dsh-login',
        name: 'Log in with a DeepSeek API key',
        description: expect.stringContaining('credentials.json'),
        type: 'terminal',
        args: ['--login'],
      },
    ])
    expect(init.agentCapabilities?.auth).toEqual({ logout: {} })
  }, 30_000)

  it('a client asking with the terminal-auth meta also gets the whole login command', async () => {
    // What the ACP registry's check sends.
    const init = await initialize({ terminal: true, _meta: { 'terminal-auth': true } })
    expect(init.authMethods).toMatchObject([
      {
        id: 'dsh-login',
        type: 'terminal',
        args: ['--login'],
        _meta: {
          'terminal-auth': {
            label: 'dsh login',
            command: process.execPath,
            args: [BIN, '--login'],
          },
        },
      },
    ])
  }, 30_000)

  it('any other client gets an agent method that says how to log in', async () => {
    const init = await initialize({})
    expect(init.authMethods).toHaveLength(1)
    const [method] = init.authMethods ?? []
    expect(method).not.toHaveProperty('type')
    expect(method).toMatchObject({ id: 'dsh-login', name: 'Log in with a DeepSeek API key' })
    expect(method?.description).toContain('dsh-acp --login')
  }, 30_000)

  it('a scripted model offers no sign-in', async () => {
    const home = await tempDir('home')
    const { bin, client, init } = await connectBin(QUIET_MODEL, home)
    expect(init.authMethods).toEqual([])
    await finishBin(bin, client)
  }, 30_000)
})

describe("deepseek's server without a key, over the bin", () => {
  it('session/new and session/load answer auth_required saying how to log in', async () => {
    const home = await tempDir('home')
    const { bin, client, agent } = await connectBin(['--sessions', join(home, 's')], home)
    const opened = agent.request('session/new', { cwd: home, mcpServers: [] })
    await expect(opened).rejects.toMatchObject({
      code: -32000,
      message: expect.stringMatching(
        /^Authentication required: .*`dsh-acp --login`.*DEEPSEEK_API_KEY/,
      ),
    })
    const loaded = agent.request('session/load', { sessionId: 'any', cwd: home, mcpServers: [] })
    await expect(loaded).rejects.toMatchObject({ code: -32000 })
    await finishBin(bin, client)
  }, 30_000)
})

describe('a login while the agent runs', () => {
  const roots: Context[] = []
  afterAll(async () => {
    for (const root of roots) await root.fiber.dispose()
  })

  it('authenticate then session/new succeed without a restart, and logout refuses again', async () => {
    const home = await tempDir('home')
    const config = await tempDir('config')
    // The model is scripted (no network); the sign-in is DeepSeek's server's, as the bin's.
    const signedIn = serverSignIn({
      env: { XDG_CONFIG_HOME: config },
      launch: { command: process.execPath, args: [BIN] },
      warn: () => undefined,
    })
    const root = new Context()
    roots.push(root)
    const script = await loadLlmScript(QUIET_MODEL[1]!)
    const dsh = await startDsh({ cwd: home, llm: { kind: 'scripted', script } }, root)
    const pipes = new FramePipes()
    dsh.serve(ndJsonStream(pipes.agentOutput, pipes.agentInput), { auth: signedIn.auth })
    const client = new HarnessClient(ndJsonStream(pipes.clientOutput, pipes.clientInput))
    const agent = client.connection.agent
    await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const open = () => agent.request('session/new', { cwd: home, mcpServers: [] })

    await expect(open()).rejects.toMatchObject({ code: -32000 })
    await expect(agent.request('authenticate', { methodId: 'dsh-login' })).rejects.toMatchObject({
      code: -32000,
    })
    storeKey(join(config, 'dsh', 'credentials.json'), 'https://api.deepseek.com', 'sk-later')
    expect(await agent.request('authenticate', { methodId: 'dsh-login' })).toEqual({})
    expect((await open()).sessionId).not.toBe('')
    expect(signedIn.keys.current()).toBe('sk-later')

    expect(await agent.request('logout', {})).toEqual({})
    await expect(open()).rejects.toMatchObject({ code: -32000 })
    client.connection.close()
    assertAgentFramesValid(pipes.frames)
  }, 30_000)
})
