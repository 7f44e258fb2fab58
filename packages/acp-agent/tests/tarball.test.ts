// The app as a person installs it: `scripts/pack.mjs` packs the built bin into a tarball, which
// `npm install -g` puts into a temporary prefix with an empty home (no build, nothing from
// outside the registry); the installed `dsh-acp` answers initialize and session/new and plays a
// scripted prompt that reads and edits a file, every frame schema-valid, and prints its Zed
// entry. The install takes the registry's packages (ripgrep's binary, the bash grammar).
import { execFile } from 'node:child_process'
import { mkdtemp, mkdir, readFile, readlink, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as acp from '@agentclientprotocol/sdk'
import { assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
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
        'package/dist/bin.cjs',
        'package/dist/bin.js',
        'package/dist/dsh-acp.cjs',
        'package/dist/markdown-worker.js',
        'package/dist/vendor/undici.cjs',
        'package/dist/vendor/yaml.cjs',
        'package/dist/vendor/vscode-jsonrpc-node.cjs',
        'package/dist/vendor/mcp-sdk.cjs',
      ]),
    )
    // The start reads the bundle as Latin-1: every byte of it is ASCII.
    const bundle = await run('tar', ['-xzOf', tarball, 'package/dist/dsh-acp.cjs'], {
      encoding: 'buffer',
      maxBuffer: 64 << 20,
    })
    expect(bundle.stdout.length).toBeGreaterThan(0)
    expect(bundle.stdout.findIndex((byte) => byte > 0x7f)).toBe(-1)
    expect(files.filter((file) => file.includes('/src/') || file.endsWith('.ts'))).toEqual([])
    const manifest = JSON.parse(
      (await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout,
    ) as Record<string, unknown>
    expect(manifest).toMatchObject({
      bin: { 'dsh-acp': './dist/bin.cjs' },
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
})
