// The app as a person installs it: `scripts/pack.mjs` packs the built bin into a tarball, which
// `npm install -g` puts into a temporary prefix with an empty home (no build, nothing from
// outside the registry); the installed `dsh-acp` answers initialize and session/new and plays a
// scripted prompt that reads and edits a file, every frame schema-valid, prints its Zed entry,
// and keeps its answers beside its bundle, which its next start's front answers from. The
// install takes the registry's packages (ripgrep's binary, the bash grammar).
import { execFile } from 'node:child_process'
import { mkdtemp, mkdir, readFile, readlink, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as acp from '@agentclientprotocol/sdk'
import { HarnessClient, assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { PACKAGE_DIR, ensureBuilt } from './helpers/build'
import { envWithoutKey, startCommand } from './helpers/spawn-bin'

const run = promisify(execFile)
let root = ''
let tarball = ''
let installed = ''
let home = ''

beforeAll(async () => {
  ensureBuilt()
  root = await mkdtemp(join(tmpdir(), 'dsh-tarball-'))
  home = join(root, 'home')
  await mkdir(home)
  const packed = await run(process.execPath, [
    join(PACKAGE_DIR, 'scripts/pack.mjs'),
    '--out',
    join(root, 'out'),
  ])
  tarball = packed.stdout.trim()
  const prefix = join(root, 'prefix')
  await run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', tarball], {
    env: { ...envWithoutKey(), HOME: home, npm_config_cache: join(home, '.npm') },
    cwd: root,
  })
  installed = join(prefix, 'bin', 'dsh-acp')
}, 600_000)

afterAll(async () => {
  if (root !== '') await rm(root, { recursive: true, force: true })
})

describe('the packed app', () => {
  it('the tarball carries the bundle and lists only registry packages as dependencies', async () => {
    const listed = await run('tar', ['-tzf', tarball])
    const files = listed.stdout.trim().split('\n').sort()
    expect(files).toEqual(
      expect.arrayContaining([
        'package/dist/bin.js',
        'package/dist/dsh-acp.cjs',
        'package/dist/markdown-worker.js',
      ]),
    )
    expect(files.filter((file) => file.includes('/src/') || file.endsWith('.ts'))).toEqual([])
    const manifest = JSON.parse(
      (await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout,
    ) as Record<string, unknown>
    expect(manifest).toMatchObject({
      bin: { 'dsh-acp': './dist/bin.js' },
      engines: { node: expect.any(String) },
      license: expect.any(String),
      repository: expect.any(Object),
    })
    const dependencies = Object.keys(manifest.dependencies as object)
    expect(dependencies.filter((name) => name.startsWith('@deepseek-ai/'))).toEqual([])
    expect(dependencies).toContain('@vscode/ripgrep')
  })

  it('installed with npm -g into an empty home, dsh-acp plays a scripted prompt', async () => {
    expect(resolve(await readlink(installed), '..')).toContain('node_modules')
    const workspace = join(root, 'project')
    await mkdir(workspace)
    await writeFile(join(workspace, 'notes.txt'), 'alpha\nbeta\n')
    const script = join(root, 'script.json')
    await writeFile(
      script,
      JSON.stringify({
        turns: [
          { toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] },
          {
            toolCalls: [
              {
                name: 'edit',
                arguments: { file_path: 'notes.txt', old_string: 'beta', new_string: 'gamma' },
              },
            ],
          },
          { text: 'Edited.' },
        ],
      }),
    )
    const env = { ...envWithoutKey(), HOME: home }
    const args = ['--script', script, '--mode', 'full-access']
    const bin = startCommand(installed, args, workspace, env)
    const connection = acp.client().connect(bin.stream)
    const init = await connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    })
    expect(init.agentInfo?.name).toBe('dsh')
    const session = await connection.agent.request(acp.methods.agent.session.new, {
      cwd: workspace,
      mcpServers: [],
    })
    const answer = await connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: 'change beta' }],
    })
    expect(answer.stopReason).toBe('end_turn')
    expect(await readFile(join(workspace, 'notes.txt'), 'utf8')).toBe('alpha\ngamma\n')
    connection.close()
    bin.child.stdin.end()
    expect(await bin.exited).toBe(0)
    assertAgentFramesValid(bin.frames)
  })

  it('the installed dsh-acp prints its own Zed entry', async () => {
    const printed = await run(installed, ['--print-zed-settings'], {
      env: { ...envWithoutKey(), HOME: home },
    })
    const entry = (JSON.parse(printed.stdout) as { agent_servers: { dsh: unknown } }).agent_servers
      .dsh
    expect(entry).toEqual({
      type: 'custom',
      command: installed,
      args: [],
      env: { DEEPSEEK_API_KEY: 'your key here' },
    })
  })

  it('the installed dsh-acp keeps its answers beside its bundle, and its next start answers from them', async () => {
    const env = { ...envWithoutKey(), HOME: home }
    const open = async () => {
      const workspace = await mkdtemp(join(root, 'again-'))
      const bin = startCommand(installed, [], workspace, env)
      const client = new HarnessClient(bin.stream)
      const agent = client.connection.agent
      await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
      const opened = await agent.request('session/new', { cwd: workspace, mcpServers: [] })
      await agent.request('session/set_mode', { sessionId: opened.sessionId, modeId: 'read-only' })
      client.connection.close()
      bin.child.stdin.end()
      expect(await bin.exited).toBe(0)
      assertAgentFramesValid(bin.frames)
      const modes = client.updates.flatMap(({ update }) =>
        update.sessionUpdate === 'current_mode_update' ? [update.currentModeId] : [],
      )
      return { mode: opened.modes?.currentModeId, modes }
    }
    expect(await open()).toEqual({ mode: 'ask', modes: ['read-only'] })
    const answers = join(
      dirname(resolve(dirname(installed), await readlink(installed))),
      'dsh-acp.cjs.answers.json',
    )
    // The kept answer altered to one the stack never gives: the next start's front says it, and
    // the stack's own answer sets it right before the mode the client asks for.
    const kept = JSON.parse(await readFile(answers, 'utf8')) as {
      entries: { sessionNew: { modes: { currentModeId: string } } }[]
    }
    // The newest setup first: this one (the scripted start before it kept its own).
    expect(kept.entries).toHaveLength(2)
    kept.entries[0]!.sessionNew.modes.currentModeId = 'plan'
    await writeFile(answers, JSON.stringify(kept))
    expect(await open()).toEqual({ mode: 'plan', modes: ['ask', 'read-only'] })
  })
})
