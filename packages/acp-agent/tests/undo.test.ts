// Undo over the BUILT bin's real stdio with the SDK's own client, real git and a real disk: a
// turn that edits, creates and deletes files and runs a command that changes others is taken
// back byte for byte by `/undo` (BOM, CRLF, the executable bit), with the person's repository
// untouched; two undos take back two turns and `/redo` puts one back; a turn's write and
// command undone while the person's edit between turns stays; an undo after
// `session/load` in a new process; a file the person changed since is asked about in `ask` and
// kept; without git, the file tools' writes are undone and the reply says commands' are not.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmod, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { HarnessClient, choose } from '@deepseek-ai/dsh-acp-testing'
import type { PermissionAnswerer } from '@deepseek-ai/dsh-acp-testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { finishBin } from './helpers/bin-client'
import { ensureBuilt } from './helpers/build'
import { envWithoutKey, startBin } from './helpers/spawn-bin'
import { tempDirs } from './helpers/temp-dirs'

const tempDir = tempDirs('dsh-undo')

beforeAll(() => ensureBuilt(), 420_000)

type Call = { name: string; arguments: Record<string, unknown> }
const read = (file: string): Call => ({ name: 'read', arguments: { file_path: file } })
const write = (file: string, content: string): Call => ({
  name: 'write',
  arguments: { file_path: file, content },
})
const bash = (command: string): Call => ({ name: 'bash', arguments: { command } })
/** One model response per call, then a closing text: one agent turn per list. */
const script = (...prompts: Call[][]) => ({
  turns: prompts.flatMap((calls) => [
    ...calls.map((call) => ({ toolCalls: [call] })),
    { text: 'Done.' },
  ]),
})

const BOM_CRLF = Buffer.from('\ufeffline one\r\nline two\r\n')

/** A hash of every file under `dir` with its mode: equal hashes, equal trees. */
async function treeHash(dir: string): Promise<string> {
  const hash = createHash('sha256')
  const walk = async (at: string): Promise<void> => {
    const entries = await readdir(at, { withFileTypes: true })
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(at, entry.name)
      hash.update(`${path}\0${(await stat(path)).mode}\0`)
      if (entry.isDirectory()) await walk(path)
      else hash.update(await readFile(path))
    }
  }
  await walk(dir)
  return hash.digest('hex')
}

interface Run {
  client: HarnessClient
  sessionId: string
  /** Sends a prompt; resolves with the text the agent answered it with. */
  prompt(text: string): Promise<string>
  finish(): Promise<void>
}

interface Where {
  workspace: string
  home: string
  state: string
}

async function place(): Promise<Where> {
  return {
    workspace: await tempDir('work'),
    home: await tempDir('home'),
    state: await tempDir('state'),
  }
}

async function startRun(
  where: Where,
  options: {
    script?: object
    mode?: string
    answer?: PermissionAnswerer
    load?: string
    env?: NodeJS.ProcessEnv
  },
): Promise<Run> {
  const file = join(where.home, 'script.json')
  await writeFile(file, JSON.stringify(options.script ?? { turns: [{ text: 'No model here.' }] }))
  const args = ['--script', file, '--sandbox', 'off', '--sessions', join(where.state, 'sessions')]
  const bin = startBin([...args, '--mode', options.mode ?? 'full-access'], where.home, options.env)
  const client = new HarnessClient(bin.stream, options.answer ?? choose('allow_once'))
  const agent = client.connection.agent
  await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
  let sessionId = options.load
  if (sessionId === undefined)
    sessionId = (await agent.request('session/new', { cwd: where.workspace, mcpServers: [] }))
      .sessionId
  else await agent.request('session/load', { sessionId, cwd: where.workspace, mcpServers: [] })
  await client.waitForUpdate(
    ({ update }) =>
      update.sessionUpdate === 'available_commands_update' &&
      update.availableCommands.some((command) => command.name === 'undo'),
  )
  const id = sessionId
  return {
    client,
    sessionId: id,
    async prompt(text) {
      const from = client.updates.length
      await agent.request('session/prompt', { sessionId: id, prompt: [{ type: 'text', text }] })
      return client.updates
        .slice(from)
        .flatMap(({ update }) =>
          update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
            ? [update.content.text]
            : [],
        )
        .join('')
    },
    finish: () => finishBin(bin, client),
  }
}

const modeOf = async (path: string) => (await stat(path)).mode & 0o777

describe('/undo over the bin', () => {
  it("puts back a turn's edit, new file, deleted file and a command's changes byte for byte", async () => {
    const where = await place()
    const { workspace } = where
    await writeFile(join(workspace, 'edit.txt'), BOM_CRLF)
    await writeFile(join(workspace, 'gone.txt'), 'deleted by the command\n')
    await writeFile(join(workspace, 'cmd.txt'), 'changed by the command\r\n')
    await writeFile(join(workspace, 'run.sh'), '#!/bin/sh\necho hi\n')
    await chmod(join(workspace, 'run.sh'), 0o644)
    execFileSync('git', ['init', '-q'], { cwd: workspace })
    execFileSync('git', ['add', '.'], { cwd: workspace })
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'one'], {
      cwd: workspace,
    })
    const before = await treeHash(workspace)
    const edit: Call = {
      name: 'edit',
      arguments: { file_path: 'edit.txt', old_string: 'line one', new_string: 'LINE ONE' },
    }
    const command = "rm gone.txt && printf 'by sed\\n' > cmd.txt && chmod +x run.sh"
    const run = await startRun(where, {
      script: script([read('edit.txt'), edit, write('new.txt', 'new\n'), bash(command)]),
    })
    try {
      await run.prompt('change things')
      expect(existsSync(join(workspace, 'gone.txt'))).toBe(false)
      expect(await modeOf(join(workspace, 'run.sh'))).toBe(0o755)
      const reply = await run.prompt('/undo')
      expect(reply).toBe(
        [
          'Undid the turn "change things" (5 files):',
          '- cmd.txt: edit reverted',
          '- edit.txt: edit reverted',
          '- gone.txt: put back (the turn deleted it)',
          '- new.txt: removed (the turn created it)',
          '- run.sh: mode put back',
        ].join('\n'),
      )
      expect(await readFile(join(workspace, 'edit.txt'))).toEqual(BOM_CRLF)
      expect(await modeOf(join(workspace, 'run.sh'))).toBe(0o644)
      // Every file, the person's .git included (HEAD, index, refs, config), as it was.
      expect(await treeHash(workspace)).toBe(before)
      expect(existsSync(join(where.state, 'snapshots'))).toBe(true)
      expect(await run.prompt('/undo')).toBe(
        'Nothing to undo: no earlier turn of this session changed files.',
      )
    } finally {
      await run.finish()
    }
  })

  it('two undos take back two turns, and /redo puts the earlier one back', async () => {
    const where = await place()
    const file = join(where.workspace, 'a.txt')
    await writeFile(file, 'zero\n')
    const run = await startRun(where, {
      script: script([bash("printf 'one\\n' > a.txt")], [bash("printf 'two\\n' > a.txt")]),
    })
    try {
      await run.prompt('first')
      await run.prompt('second')
      expect(await run.prompt('/undo')).toContain('Undid the turn "second" (1 file)')
      expect(await readFile(file, 'utf8')).toBe('one\n')
      expect(await run.prompt('/undo')).toContain('Undid the turn "first" (1 file)')
      expect(await readFile(file, 'utf8')).toBe('zero\n')
      expect(await run.prompt('/redo')).toContain(
        'Redid the turn "first" (1 file):\n- a.txt: edit made again',
      )
      expect(await readFile(file, 'utf8')).toBe('one\n')
    } finally {
      await run.finish()
    }
  })

  it("undoes a turn's edit and command and leaves what the person changed between turns", async () => {
    const where = await place()
    const at = (name: string) => join(where.workspace, name)
    for (const name of ['a.txt', 'b.txt', 'c.txt']) await writeFile(at(name), `${name} 0\n`)
    const run = await startRun(where, {
      script: script(
        [bash("printf 'c.txt 1\\n' > c.txt")],
        [read('a.txt'), write('a.txt', 'a.txt by write\n'), bash("printf 'c.txt 2\\n' > c.txt")],
      ),
    })
    try {
      await run.prompt('first')
      await writeFile(at('b.txt'), 'b.txt by the person\n')
      await run.prompt('second')
      expect(await readFile(at('a.txt'), 'utf8')).toBe('a.txt by write\n')
      expect(await run.prompt('/undo')).toBe(
        [
          'Undid the turn "second" (2 files):',
          '- a.txt: edit reverted',
          '- c.txt: edit reverted',
        ].join('\n'),
      )
      expect(await readFile(at('a.txt'), 'utf8')).toBe('a.txt 0\n')
      expect(await readFile(at('b.txt'), 'utf8')).toBe('b.txt by the person\n')
      expect(await readFile(at('c.txt'), 'utf8')).toBe('c.txt 1\n')
    } finally {
      await run.finish()
    }
  })

  it('undoes a turn after session/load in a new process', async () => {
    const where = await place()
    const file = join(where.workspace, 'a.txt')
    await writeFile(file, 'before\n')
    const first = await startRun(where, { script: script([bash("printf 'after\\n' > a.txt")]) })
    await first.prompt('change a')
    await first.finish()
    const second = await startRun(where, { load: first.sessionId })
    try {
      expect(await second.prompt('/undo')).toContain('- a.txt: edit reverted')
      expect(await readFile(file, 'utf8')).toBe('before\n')
    } finally {
      await second.finish()
    }
  })
})

describe('a change made since the turn', () => {
  const changeThenEdit = async (mode: string, answer: PermissionAnswerer) => {
    const where = await place()
    const mine = join(where.workspace, 'mine.txt')
    const other = join(where.workspace, 'other.txt')
    await writeFile(mine, 'one\n')
    await writeFile(other, 'one\n')
    const run = await startRun(where, {
      mode,
      answer,
      script: script([bash("printf 'two\\n' > mine.txt; printf 'two\\n' > other.txt")]),
    })
    await run.prompt('change both')
    await writeFile(mine, 'the person typed this\n')
    return { run, mine, other }
  }
  /** Allows the turn's command; answers the undo's question with `undo`'s option. */
  const answering =
    (undo: 'overwrite' | 'keep'): PermissionAnswerer =>
    (request) =>
      request.toolCall.title?.startsWith('Undo:') === true
        ? { outcome: { outcome: 'selected', optionId: undo } }
        : choose('allow_once')(request)

  it('is asked about in ask mode, with the file named, and kept when the person says keep', async () => {
    const { run, mine, other } = await changeThenEdit('ask', answering('keep'))
    try {
      const reply = await run.prompt('/undo')
      const asked = run.client.permissionRequests.find((r) => r.toolCall.title?.startsWith('Undo:'))
      expect(asked?.toolCall.locations).toEqual([{ path: mine }])
      expect(reply).toContain('- mine.txt: kept: changed since the turn')
      expect(reply).toContain('- other.txt: edit reverted')
      expect(await readFile(mine, 'utf8')).toBe('the person typed this\n')
      expect(await readFile(other, 'utf8')).toBe('one\n')
    } finally {
      await run.finish()
    }
  })

  it('is put back in ask mode when the person allows it', async () => {
    const { run, mine } = await changeThenEdit('ask', answering('overwrite'))
    try {
      expect(await run.prompt('/undo')).toContain('- mine.txt: edit reverted')
      expect(await readFile(mine, 'utf8')).toBe('one\n')
    } finally {
      await run.finish()
    }
  })

  it('is kept unasked in full-access, and /undo overwrite puts it back', async () => {
    const { run, mine } = await changeThenEdit('full-access', choose('allow_once'))
    try {
      expect(await run.prompt('/undo')).toContain('- mine.txt: kept: changed since the turn')
      expect(run.client.permissionRequests).toEqual([])
      expect(await readFile(mine, 'utf8')).toBe('the person typed this\n')
      expect(await run.prompt('/undo overwrite')).toContain('- mine.txt: edit reverted')
      expect(await readFile(mine, 'utf8')).toBe('one\n')
    } finally {
      await run.finish()
    }
  })
})

describe('without git', () => {
  it("undoes the file tools' writes and says a command's changes cannot be undone", async () => {
    const where = await place()
    // A `git` first on PATH that cannot run: as on a machine without git.
    const fakeBin = join(where.home, 'bin')
    await mkdir(fakeBin)
    await writeFile(join(fakeBin, 'git'), '#!/bin/sh\nexit 127\n', { mode: 0o755 })
    const env = { ...envWithoutKey(), PATH: `${fakeBin}:${process.env.PATH ?? ''}` }
    const file = join(where.workspace, 'a.txt')
    await writeFile(file, Buffer.from('\ufeffold\r\n'))
    const run = await startRun(where, {
      env,
      script: script([read('a.txt'), write('a.txt', 'new\n'), bash("printf 'x' > by-command.txt")]),
    })
    try {
      await run.prompt('write it')
      const reply = await run.prompt('/undo')
      expect(reply).toContain('- a.txt: edit reverted')
      expect(reply).toContain("commands' changes cannot be undone")
      expect(await readFile(file)).toEqual(Buffer.from('\ufeffold\r\n'))
      expect(await readFile(join(where.workspace, 'by-command.txt'), 'utf8')).toBe('x')
    } finally {
      await run.finish()
    }
  })
})
