// End to end: the BUILT bin as a child process, driven over real stdio by the SDK's client.
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { assertAgentFramesValid } from '@deepseek-ai/dsh-acp-testing'
import { sandboxMissing } from '@deepseek-ai/dsh-shell-sandbox/testing'
import { BIN, DEMO, ensureBuilt } from './helpers/build'
import { envWithoutKey, runBin, startBin } from './helpers/spawn-bin'
import { messageText, promptOnce, toolUpdates } from './helpers/session'
import type { SessionRun } from './helpers/session'

const APP_TS = [
  '// app',
  'export const a = 1',
  'export const b = 2',
  'const x = 1',
  'export { x }',
  '',
].join('\n')

const dirs: string[] = []
async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `dsh-acp-agent-${label}-`))
  dirs.push(dir)
  return dir
}

// A cold build of the workspace on a busy machine takes minutes.
beforeAll(() => ensureBuilt(), 420_000)
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

describe('a scripted session over stdio', () => {
  let run: SessionRun
  let workspace = ''

  beforeAll(async () => {
    workspace = await tempDir('work')
    await mkdir(join(workspace, 'src'))
    await writeFile(join(workspace, 'src/app.ts'), APP_TS)
    await writeFile(join(workspace, 'notes.txt'), 'todo\n')
    const scriptFile = fileURLToPath(new URL('./fixtures/session-script.json', import.meta.url))
    // The bin runs from another directory: the session's cwd alone decides where paths go.
    // Full access on purpose: this session is about the cards, not about asking first.
    run = await promptOnce(
      startBin(['--script', scriptFile, '--mode', 'full-access'], await tempDir('elsewhere')),
      workspace,
      'go',
    )
  }, 60_000)

  it('the prompt ends with end_turn and the bin exits 0 when stdin closes', () => {
    expect(run.stopReason).toBe('end_turn')
    expect(run.exitCode).toBe(0)
  })

  it('each tool call opens a card and one update settles it, in script order', () => {
    const sequence = toolUpdates(run.updates).map(
      (update) => `${update.sessionUpdate} ${update.toolCallId} ${update.status}`,
    )
    expect(sequence).toEqual([
      'tool_call r1 in_progress',
      'tool_call_update r1 completed',
      'tool_call e1 in_progress',
      'tool_call_update e1 completed',
      'tool_call w1 in_progress',
      'tool_call_update w1 completed',
      'tool_call e2 in_progress',
      'tool_call_update e2 failed',
      'tool_call r2 in_progress',
      'tool_call_update r2 completed',
      'tool_call e3 in_progress',
      'tool_call_update e3 completed',
    ])
  })

  it('cards carry titles, kinds and absolute locations with 1-based lines', () => {
    const calls = toolUpdates(run.updates).filter((update) => update.sessionUpdate === 'tool_call')
    const app = join(workspace, 'src/app.ts')
    expect(calls.map((call) => [call.title, call.kind, call.locations])).toEqual([
      ['Read src/app.ts', 'read', [{ path: app, line: 3 }]],
      ['Edit src/app.ts', 'edit', [{ path: app }]],
      ['Write out/new.txt', 'edit', [{ path: join(workspace, 'out/new.txt') }]],
      ['Edit notes.txt', 'edit', [{ path: join(workspace, 'notes.txt') }]],
      ['Read notes.txt', 'read', [{ path: join(workspace, 'notes.txt') }]],
      ['Edit notes.txt', 'edit', [{ path: join(workspace, 'notes.txt') }]],
    ])
  })

  it('the completed edit shows its diff and the line it changed', () => {
    const done = toolUpdates(run.updates).find(
      (update) => update.sessionUpdate === 'tool_call_update' && update.toolCallId === 'e1',
    )!
    expect(done.locations).toEqual([{ path: join(workspace, 'src/app.ts'), line: 4 }])
    const diff = done.content?.find((content) => content.type === 'diff')
    expect(diff).toMatchObject({ path: join(workspace, 'src/app.ts') })
    expect(diff && 'newText' in diff && diff.newText).toContain('const x = 2')
  })

  it('the edit of an unread file fails saying to read it first', () => {
    const failed = toolUpdates(run.updates).find(
      (update) => update.sessionUpdate === 'tool_call_update' && update.toolCallId === 'e2',
    )!
    expect(JSON.stringify(failed.content)).toMatch(/has not been read in this session/)
    expect(failed.rawOutput).toEqual({ error: { name: 'FsError', code: 'FS_NOT_OBSERVED' } })
  })

  it('the files on disk are as the script left them', async () => {
    expect(await readFile(join(workspace, 'src/app.ts'), 'utf8')).toBe(
      APP_TS.replace('const x = 1', 'const x = 2'),
    )
    expect(await readFile(join(workspace, 'out/new.txt'), 'utf8')).toBe('hello\n')
    expect(await readFile(join(workspace, 'notes.txt'), 'utf8')).toBe('done\n')
  })

  it('every byte on stdout is a json-rpc frame that validates against the acp schema', () => {
    expect(run.bin.agentText().endsWith('\n')).toBe(true)
    const lines = run.lines.slice(0, -1)
    // Three responses (initialize, session/new, session/prompt) and one frame per update.
    expect(lines.length).toBe(run.updates.length + 3)
    const frames = run.bin.frames.filter((frame) => frame.from === 'agent')
    expect(frames.map((frame) => frame.text)).toEqual(lines)
    assertAgentFramesValid(frames)
  })
})

describe('an openai-compatible server', () => {
  it('with a key the bin streams from --base-url using --model and the bearer key', async () => {
    const seen: { path?: string; auth?: string; body?: { model?: string } } = {}
    const server = createServer((request, response) => {
      if (request.method === 'GET') return void response.writeHead(404).end()
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      request.on('end', () => {
        Object.assign(seen, {
          path: request.url,
          auth: request.headers.authorization,
          body: JSON.parse(body) as { model?: string },
        })
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        const chunk = (delta: object, finish: string | null): string =>
          `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
        response.end(
          `${chunk({ content: 'hi from the server' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`,
        )
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    try {
      const workspace = await tempDir('openai')
      const env = { ...envWithoutKey(), DEEPSEEK_API_KEY: 'sk-local-test' }
      const args = ['--model', 'local-model', '--base-url', `http://127.0.0.1:${port}/v1`]
      const run = await promptOnce(startBin(args, workspace, env), workspace, 'hello')
      const text = messageText(run.updates)
      expect(text).toBe('hi from the server')
      expect(run.stopReason).toBe('end_turn')
      expect(seen).toMatchObject({
        path: '/v1/chat/completions',
        auth: 'Bearer sk-local-test',
        body: { model: 'local-model' },
      })
    } finally {
      server.close()
    }
  })
})

describe('bad frames on stdin', () => {
  it('a line that is not json gets an error and the next request is still answered', async () => {
    const workspace = await tempDir('raw')
    const child = spawn(process.execPath, [BIN], { cwd: workspace, env: envWithoutKey() })
    const out = { text: '' }
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out.text += text))
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: 1 },
    }
    child.stdin.write('this is not json\n')
    child.stdin.write(`${JSON.stringify(initialize)}\n`)
    await vi.waitFor(() => expect(out.text).toContain('"id":1'), { timeout: 10_000 })
    child.stdin.end()
    expect(await exited).toBe(0)
    const messages = out.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(messages[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
    expect(messages[1]).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: 1 } })
  })
})

describe('flags and bad invocations', () => {
  it('a missing script file exits 1 naming the file, with nothing on stdout', async () => {
    const dir = await tempDir('bad')
    const result = await runBin(['--script', 'absent.json'], dir)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('absent.json: no such file')
    expect(result.stdout).toBe('')
  })

  it('a script that is not json exits 1 naming the file', async () => {
    const dir = await tempDir('bad')
    await writeFile(join(dir, 'broken.json'), '{"turns": [')
    const result = await runBin(['--script', 'broken.json'], dir)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('broken.json is not valid JSON')
    expect(result.stdout).toBe('')
  })

  it('a script with a malformed entry exits 1 naming the entry', async () => {
    const dir = await tempDir('bad')
    await writeFile(
      join(dir, 'entry.json'),
      JSON.stringify({ turns: [{ toolCalls: [{ arguments: {} }] }] }),
    )
    const result = await runBin(['--script', 'entry.json'], dir)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('turns[0].toolCalls[0].name must be a non-empty string')
    expect(result.stdout).toBe('')
  })

  it('an unknown flag exits 2 with the flag named on stderr', async () => {
    const result = await runBin(['--frobnicate'], await tempDir('flags'))
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('unknown option --frobnicate')
    expect(result.stdout).toBe('')
  })

  it('a flag without its value exits 2', async () => {
    const result = await runBin(['--model'], await tempDir('flags'))
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--model needs a value')
  })

  it('help prints the usage to stdout and exits 0', async () => {
    const result = await runBin(['--help'], await tempDir('flags'))
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Usage: dsh-acp')
  })

  it('version prints the package version and exits 0', async () => {
    const result = await runBin(['--version'], await tempDir('flags'))
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    expect(result).toMatchObject({ code: 0, stdout: `dsh-acp ${pkg.version}\n` })
  })
})

describe('the demo', () => {
  it('runs to exit 0 showing the cards, the questions asked, the refused edit, the command and the files', async () => {
    const child = spawn(process.execPath, [DEMO], { env: envWithoutKey() })
    const out = { stdout: '', stderr: '' }
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out.stdout += text))
    child.stderr.setEncoding('utf8').on('data', (text: string) => (out.stderr += text))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(out.stderr).toBe('')
    expect(code).toBe(0)
    for (const line of [
      '✓ Read src/greet.ts  [read, completed]',
      '    at src/greet.ts:7',
      '• Edit src/greet.ts  [edit, pending]',
      '? Allow "Edit src/greet.ts"?  [Allow / Always allow edit in this session / Reject]',
      '  → Allow',
      'mode: auto-edit',
      '✗ Edit NOTES.md  [edit, failed: FS_NOT_OBSERVED]',
      '- - greet: spelling to check',
      '+ - farewell: added',
      '--- src/farewell.ts',
      '✓ echo "src holds $(ls src | wc -l) files"; grep -c Goodbye src/farewell.ts  [execute, completed]',
      '    | src holds 2 files',
      'turn ended: end_turn',
    ]) {
      expect(out.stdout).toContain(line)
    }
    // In auto-edit the command runs unasked in the sandbox; without one it is asked about, by
    // its description (what "always" offers for it is the classifier's to say, so only the
    // question's start is fixed).
    const question = '? Allow "Count the sources and check the farewell"?  [Allow / Always allow '
    expect(out.stdout.includes(question)).toBe(sandboxMissing() !== undefined)
  }, 60_000)
})
