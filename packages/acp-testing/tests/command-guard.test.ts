// Commands over the real SDK client that the classifier asks about and the cards that say how
// they ended: in `ask`, commands a hostile probe ran unasked (a subscript that runs a command,
// an option clustered to write a file, a read outside the workspace) are asked, and rejected
// they change nothing; a finished card says a failure, a timeout or a signal in words and a
// success by its status alone, the terminal's last line saying it too; in the sandbox, a
// package install fails at once and a name that does not resolve gets a hint naming the
// network and `escalate`; no command, sandboxed or not, sees a variable named like a secret.
// Every frame is checked against the schema.
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeWithSandbox } from '@deepseek-ai/dsh-shell-sandbox/testing'
import { choose } from '../src/client'
import { bashTurns, lastOf, textsOf } from './helpers/commands'
import { useAcpHarness } from './helpers/harness'

const makeHarness = useAcpHarness()

describe('commands a probe ran unasked', () => {
  it('are asked in ask mode, and rejected they change nothing', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      answer: choose('reject_once'),
      script: bashTurns(
        "printf -v 'a[$(touch pwned)]' x",
        'sort -uo sorted.txt in.txt',
        "[[ 1 -eq 'a[$(touch pwned2)]' ]]",
      ),
    })
    await writeFile(join(harness.workspace, 'in.txt'), 'b\na\n')
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run them')
    expect(harness.permissionRequests.map((request) => request.toolCall.toolCallId)).toEqual([
      'b1',
      'b2',
      'b3',
    ])
    for (const file of ['pwned', 'sorted.txt', 'pwned2']) {
      expect(existsSync(join(harness.workspace, file))).toBe(false)
    }
  })

  it('asks before a read outside the workspace, with no "always" for it', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      answer: choose('reject_once'),
      script: bashTurns('cat /etc/hostname', 'cat README.md'),
    })
    await writeFile(join(harness.workspace, 'README.md'), 'hi\n')
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run them')
    const [request] = harness.permissionRequests
    expect(harness.permissionRequests).toHaveLength(1)
    expect(request!.toolCall.toolCallId).toBe('b1')
    expect(request!.options.map((option) => option.kind)).toEqual(['allow_once', 'reject_once'])
    expect(lastOf(harness.updatesOf(sessionId), 'b2')).toMatchObject({ status: 'completed' })
  })

  it('remembers "always allow git add" without letting git -c through', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      answer: choose('allow_always'),
      script: bashTurns('git add . 2>&1; true', 'git -c core.fsmonitor=true add . 2>&1; true'),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run them')
    const names = harness.permissionRequests.map((request) => request.options[1]?.name)
    expect(names).toEqual([
      'Always allow git add … in this session',
      'Always allow this exact command in this session',
    ])
  })
})

describe('how a finished command card says it ended', () => {
  it('says nothing more for a success and the code for a failure', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      mode: 'full-access',
      script: bashTurns('echo fine', 'echo bad; exit 3'),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run them')
    const updates = harness.updatesOf(sessionId)
    expect(textsOf(lastOf(updates, 'b1'))).toEqual(['```console\nfine\n```'])
    expect(lastOf(updates, 'b1')).toMatchObject({ status: 'completed' })
    expect(textsOf(lastOf(updates, 'b2'))).toEqual([
      '```console\nbad\n```',
      'Failed with exit code 3',
    ])
  })

  it('says a timeout in words, on the card and as the terminal’s last line', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: { killGraceMs: 200 },
      mode: 'full-access',
      terminalOutput: true,
      script: bashTurns({ command: 'echo early; sleep 30', timeout: 300 }),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run it')
    const updates = harness.updatesOf(sessionId)
    const streamed = updates
      .map((u) => (u as { _meta?: { terminal_output?: { data: string } } })._meta?.terminal_output)
      .filter((meta) => meta !== undefined)
      .map((meta) => meta.data)
      .join('')
    expect(streamed).toBe(
      'early\n[Timed out after 0.3 s: the command and its processes were ended]\n',
    )
    expect(lastOf(updates, 'b1')).toMatchObject({ status: 'failed' })
  })

  it('says a timeout in words to a client without terminals', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: { killGraceMs: 200 },
      mode: 'full-access',
      script: bashTurns({ command: 'sleep 30', timeout: 300 }),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run it')
    expect(textsOf(lastOf(harness.updatesOf(sessionId), 'b1'))).toEqual([
      'Timed out after 0.3 s: the command and its processes were ended',
    ])
  })

  it('names the signal that ended a command', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      mode: 'full-access',
      script: bashTurns('kill -KILL $$'),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'run it')
    expect(textsOf(lastOf(harness.updatesOf(sessionId), 'b1'))).toEqual([
      'Killed by signal SIGKILL',
    ])
  })
})

describeWithSandbox('commands in a sandbox without network', () => {
  it('a package install fails at once, saying it needs the network and how to escalate', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      sandbox: true,
      mode: 'auto-edit',
      script: bashTurns('npm install left-pad'),
    })
    const sessionId = await harness.newSession()
    const began = Date.now()
    await harness.prompt(sessionId, 'install it')
    expect(Date.now() - began).toBeLessThan(10_000)
    expect(harness.permissionRequests).toHaveLength(0)
    const card = lastOf(harness.updatesOf(sessionId), 'b1')
    expect(card).toMatchObject({ status: 'failed' })
    expect(textsOf(card).join('\n')).toContain('needs the network')
    expect(existsSync(join(harness.workspace, 'node_modules'))).toBe(false)
  })

  it('a name that does not resolve gets a hint naming the network and escalate', async () => {
    const harness = await makeHarness({
      withFs: true,
      withShell: true,
      sandbox: true,
      mode: 'auto-edit',
      script: bashTurns('python3 -c "import socket; socket.getaddrinfo(\'example.com\', 443)"'),
    })
    const sessionId = await harness.newSession()
    await harness.prompt(sessionId, 'resolve it')
    const texts = textsOf(lastOf(harness.updatesOf(sessionId), 'b1')).join('\n')
    expect(texts).toContain('The sandbox has no network')
    expect(texts).toContain('escalate: true')
  })
})

describe('secrets in a command’s environment', () => {
  for (const sandbox of [false, true]) {
    it(`are left out ${sandbox ? 'in the sandbox' : 'without a sandbox'}`, async () => {
      const secrets = {
        ANTHROPIC_API_KEY: 'sk-ant-x',
        GITHUB_TOKEN: 'ghp-x',
        AWS_PROFILE: 'aws-profile-x',
      }
      Object.assign(process.env, secrets, { DSH_TEST_PLAIN: 'plain' })
      try {
        const harness = await makeHarness({
          withFs: true,
          withShell: true,
          sandbox,
          mode: sandbox ? 'auto-edit' : 'full-access',
          script: bashTurns('env'),
        })
        const sessionId = await harness.newSession()
        await harness.prompt(sessionId, 'show it')
        const output = textsOf(lastOf(harness.updatesOf(sessionId), 'b1')).join('\n')
        expect(output).toContain('DSH_TEST_PLAIN=plain')
        for (const value of Object.values(secrets)) expect(output).not.toContain(value)
      } finally {
        for (const name of [...Object.keys(secrets), 'DSH_TEST_PLAIN']) delete process.env[name]
      }
    })
  }
})
