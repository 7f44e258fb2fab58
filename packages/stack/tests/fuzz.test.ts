// Fuzzing the read, write and edit tools on the default stack (LocalFileSystem on a mkdtemp
// workspace, FsPolicy, ToolRegistry, SystemPrompt, ToolFs): 10,000 seeded argument objects of
// wrong types, missing and extra fields, huge strings, odd unicode, NUL bytes, `..` and
// absolute paths, odd numbers. Every result must be a well-formed tool result, nothing may
// throw, a failed call or a read changes no file, a successful write or edit changes only its
// own file, and every write or edit aims inside the test's temp root (cwd is no sandbox, so
// the generator itself keeps writes there; reads may also visit system files).
// The seed is printed; DSH_FUZZ_SEED=<n> replays a run.
import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve, sep } from 'node:path'
import { Context } from 'cordis'
import type { ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Stack from '../src/index'
import { fileTools } from './helpers/deployment'
import { seededRandom } from '@deepseek-ai/dsh-fs/testing'
import { testSession } from '@deepseek-ai/dsh-tools/testing'

const SEED = Number.parseInt(process.env.DSH_FUZZ_SEED ?? '', 10) || 20260607
const CALLS = 10_000
const HUGE = 1024 * 1024
const HUGE_BUDGET = 40 * HUGE
const BOM = Buffer.from([0xef, 0xbb, 0xbf])

// prettier-ignore
const ODD_STRINGS = [
  '', ' ', '\n', '\r\n', '\r', 'a', '\0', 'a\0b', '\uD800', '\uDC00x', 'x\uD83D',
  '\u202Eevil\u202C', 'e\u0301\u0301\u0301', '👩‍👩‍👧‍👦', '\uFEFF', '\u200B', 'ﬁİß',
  '\u0001\u001f\u007f', '$&', '$1$$', '\'"`', '\\', '%s%d', 'null', 'undefined',
  '__proto__', 'alpha', 'beta\n', 'gamma', 'one\r\ntwo', 'line\nline', 'a'.repeat(5000),
]
// prettier-ignore
const CHARS = [
  'a', 'b', 'z', ' ', '\n', '\r', '\t', '\0', '\uD800', '\uDFFF', '😀', 'e\u0301', '\u202E',
  '\u05D0', 'ü', '中', '\uFEFF', '$', '.', '/', '\\',
]
// prettier-ignore
const NUMBERS = [
  0, -0, -1, 1, 2, 3, 0.5, -0.5, 1.5, 2000, 2001, 1e9, 1e21, 1e308, -1e308, Number.NaN,
  Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2, Number.MIN_VALUE, Number.EPSILON, 2 ** 31, 2 ** 32,
]
const TOOLS = ['read', 'write', 'edit'] as const
type ToolName = (typeof TOOLS)[number]
const FIELDS: Record<ToolName, string[]> = {
  read: ['file_path', 'offset', 'limit'],
  write: ['file_path', 'content'],
  edit: ['file_path', 'old_string', 'new_string', 'replace_all'],
}

class Generator {
  private readonly next: () => number
  private hugeLeft = HUGE_BUDGET

  constructor(
    seed: number,
    private readonly root: string,
    private readonly ws: string,
  ) {
    this.next = seededRandom(seed)
  }

  int(n: number): number {
    return Math.floor(this.next() * n)
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T
  }

  huge(): string {
    if (this.hugeLeft < HUGE) return 'x'.repeat(4096)
    this.hugeLeft -= HUGE
    const unit = this.pick(['x', 'line\n', 'é\r\n', '\0', '😀'])
    return unit.repeat(Math.ceil(HUGE / unit.length)).slice(0, HUGE)
  }

  text(): string {
    if (this.chance(0.4)) return this.pick(ODD_STRINGS)
    if (this.chance(0.004)) return this.huge()
    return Array.from({ length: this.int(40) }, () => this.pick(CHARS)).join('')
  }

  number(): number {
    return this.chance(0.7) ? this.pick(NUMBERS) : (this.next() - 0.5) * 10 ** this.int(12)
  }

  /** Anything a model (or a broken client) might put in a field. */
  junk(depth = 0): unknown {
    switch (this.int(depth > 2 ? 5 : 9)) {
      case 0:
        return this.text()
      case 1:
        return this.number()
      case 2:
        return this.pick([null, undefined, true, false])
      case 3:
        return String(this.number())
      case 4:
        return this.pick([10n, Symbol('s'), new Date(0), () => 1, new Map(), /x/])
      case 5:
        return Array.from({ length: this.int(4) }, () => this.junk(depth + 1))
      case 6:
        return Object.fromEntries(
          Array.from({ length: this.int(4) }, () => [this.text(), this.junk(depth + 1)]),
        )
      case 7:
        return JSON.parse('{"__proto__":{"file_path":"a.txt"},"constructor":1}') as unknown
      default:
        return this.path('write')
    }
  }

  /** A path for `tool`: reads may go anywhere; writes and edits stay inside the root. */
  path(tool: ToolName): string {
    const { root, ws } = this
    // prettier-ignore
    const inRoot = [
      'a.txt', 'b.md', 'crlf.txt', 'bom.txt', 'empty.txt', 'binary.bin', 'invalid.txt', 'big.txt',
      'long-line.txt', 'sub/c.txt', 'sub', '.', 'link.txt', 'dangling', 'fifo', 'new.txt',
      `new-${this.int(20)}.txt`, `made/${this.int(5)}/deep.txt`, 'ü/ñ.txt', 'ファイル.txt',
      'e\u0301.txt', '\u202Eevil.txt', '👩‍👩‍👧.txt', ' spaced .txt', '-dash', '.hidden',
      'a.txt/', 'a.txt/x', 'name\nnewline', 'tab\tname', 'x'.repeat(255), 'x'.repeat(300),
      'd/'.repeat(8) + 'f.txt', '\uD800.txt', 'a\0b.txt', '\0', '~/x', 'C:\\x.txt',
      'file:///etc/hostname', '../outside/o.txt', '../outside/new-o.txt', '../outside/../ws/a.txt',
      './../outside/sub/x.txt', 'sub/../../outside/target.txt', '..',
      `${root}/outside/o.txt`, `${root}/outside/abs-${this.int(5)}.txt`, `${ws}/a.txt`,
      `${root}//outside///o.txt`, `${root}/outside/./target.txt`, root, `${ws}/../outside/o.txt`,
    ]
    // Reads only: system files and a `..` chain far above the root.
    // prettier-ignore
    const system = [
      '/etc/hostname', '/etc/passwd', '/', '/etc', '/dev/null', '/dev/zero', '/dev/urandom',
      '/proc/self/status', '/proc/self/environ', '/nonexistent-dsh/x',
      '../'.repeat(30) + 'etc/hostname',
    ]
    if (tool === 'read' && this.chance(0.15)) return this.pick(system)
    if (this.chance(0.4))
      return this.pick(['a.txt', 'b.md', 'crlf.txt', 'bom.txt', 'new.txt', 'link.txt'])
    if (this.chance(0.05)) return this.text()
    if (this.chance(0.002)) return this.huge()
    return this.pick(inRoot)
  }

  /** One argument object (or not an object at all) for `tool`; writes and edits aim inside the root. */
  args(tool: ToolName): unknown {
    const args = this.anyArgs(tool)
    if (tool === 'read' || typeof args !== 'object' || args === null) return args
    const path: unknown = (args as { file_path?: unknown }).file_path
    if (typeof path !== 'string' || path.includes('\0')) return args
    if (!insideRoot(physical(resolve(this.ws, path))))
      (args as { file_path: string }).file_path = 'a.txt'
    return args
  }

  private anyArgs(tool: ToolName): unknown {
    const mode = this.int(100)
    if (mode < 8) {
      return this.pick([null, undefined, [], ['a.txt'], 'a.txt', 42, true, '{"file_path":"a.txt"}'])
    }
    if (mode < 20) {
      const keys = [...FIELDS[tool], 'filepath', 'path', 'content', 'toString', this.text()]
      return Object.fromEntries(
        Array.from({ length: this.int(5) }, () => [this.pick(keys), this.junk()]),
      )
    }
    const args: Record<string, unknown> = this.plausible(tool)
    for (const field of FIELDS[tool]) {
      if (this.chance(0.08)) args[field] = this.junk()
      if (this.chance(0.03)) delete args[field]
    }
    if (this.chance(0.05)) args[this.pick(['filepath', 'oldString', 'extra', 'path'])] = this.junk()
    return args
  }

  private plausible(tool: ToolName): Record<string, unknown> {
    const file_path = this.path(tool)
    if (tool === 'read') {
      const args: Record<string, unknown> = { file_path }
      if (this.chance(0.3)) args.offset = this.chance(0.6) ? 1 + this.int(40) : this.number()
      if (this.chance(0.3)) args.limit = this.chance(0.6) ? 1 + this.int(3000) : this.number()
      return args
    }
    if (tool === 'write') return { file_path, content: this.text() }
    const old_string = this.chance(0.5)
      ? this.pick(['alpha', 'beta', 'line', 'o', '\n'])
      : this.text()
    const args: Record<string, unknown> = { file_path, old_string, new_string: this.text() }
    if (this.chance(0.5)) args.replace_all = this.chance(0.8) ? this.chance(0.7) : this.junk()
    return args
  }
}

/** A short, safe description of any value, for failure messages. */
function describeValue(value: unknown): string {
  const seen = new WeakSet<object>()
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'string') return v.length > 60 ? `${v.slice(0, 60)}…(${v.length})` : v
      if (typeof v === 'bigint' || typeof v === 'symbol' || typeof v === 'function')
        return String(v)
      if (typeof v === 'number' && !Number.isFinite(v)) return String(v)
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[cycle]'
        seen.add(v)
      }
      return v
    })
    return text ?? String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}

type Snapshot = Map<string, string>

/** Every entry under `dir`: files as `ino:size:mtime:ctime`, directories as `dir`, links as their stats. */
function snapshot(dir: string, into: Snapshot = new Map()): Snapshot {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    const stats = lstatSync(path, { bigint: true })
    if (stats.isDirectory()) {
      into.set(path, 'dir')
      snapshot(path, into)
    } else {
      into.set(path, `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`)
    }
  }
  return into
}

function changes(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = []
  for (const [path, state] of after) {
    if (!before.has(path)) out.push(`created ${path}`)
    else if (before.get(path) !== state) out.push(`changed ${path}`)
  }
  for (const path of before.keys()) if (!after.has(path)) out.push(`removed ${path}`)
  return out
}

function wellFormedProblems(exec: ToolExecution, result: unknown): string[] {
  if (typeof result !== 'object' || result === null) return ['result is not an object']
  const r = result as Partial<ToolExecutionResult>
  const problems: string[] = []
  if (r.callId !== exec.callId) problems.push(`callId ${String(r.callId)} ≠ ${exec.callId}`)
  if (typeof r.isError !== 'boolean') problems.push('isError is not a boolean')
  const blocks: unknown = r.content
  if (!Array.isArray(blocks) || blocks.length === 0)
    problems.push('content is not a non-empty array')
  else {
    for (const block of blocks as unknown[]) {
      const b = block as { type?: unknown; text?: unknown }
      if (b?.type !== 'text' || typeof b.text !== 'string') problems.push('a block is not text')
    }
    const text = (blocks as { text?: unknown }[]).map((b) => String(b?.text)).join('')
    if (text.length === 0) problems.push('content text is empty')
    if (r.isError === true && !text.startsWith('Error: '))
      problems.push('error text lacks "Error: "')
  }
  if (r.isError === true) {
    const e = r.error
    if (e === undefined) problems.push('an error result without error { name, code }')
    else if (typeof e.name !== 'string' || !/^(FS|TOOL)_[A-Z_]+$/.test(String(e.code))) {
      problems.push(`malformed error ${describeValue(e)}`)
    }
  } else if (r.error !== undefined) problems.push('a success carries an error')
  try {
    JSON.stringify(r)
  } catch (error) {
    problems.push(`result is not JSON-serialisable: ${String(error)}`)
  }
  return problems
}

let ctx: Context
let root: string
let ws: string
const report = {
  calls: 0,
  /** Malformed results and throws. */
  problems: [] as string[],
  /** Files changed that the call had no business changing, or written wrong. */
  disk: [] as string[],
  codes: new Map<string, number>(),
  successes: { read: 0, write: 0, edit: 0 },
}

async function seed(): Promise<void> {
  const outside = join(root, 'outside')
  await mkdir(join(ws, 'sub'), { recursive: true })
  await mkdir(join(outside, 'sub'), { recursive: true })
  await writeFile(join(ws, 'a.txt'), 'alpha\nbeta\ngamma\n')
  await writeFile(join(ws, 'b.md'), '# title\n\ntext $& $1 alpha\n')
  await writeFile(join(ws, 'crlf.txt'), 'one\r\ntwo\r\nalpha\r\n')
  await writeFile(join(ws, 'bom.txt'), '\uFEFFbom alpha\nsecond line\n')
  await writeFile(join(ws, 'empty.txt'), '')
  await writeFile(join(ws, 'binary.bin'), Buffer.from([0x61, 0, 0x62, 0xff]))
  await writeFile(join(ws, 'invalid.txt'), Buffer.from([0x61, 0xc3, 0x28, 0x0a]))
  await writeFile(join(ws, 'big.txt'), 'line of the big file, alpha\n'.repeat(12_000))
  await writeFile(join(ws, 'long-line.txt'), 'y'.repeat(10_000))
  await writeFile(join(ws, 'sub/c.txt'), 'c\n')
  await writeFile(join(outside, 'o.txt'), 'outside alpha\n')
  await writeFile(join(outside, 'target.txt'), 'target of the link, beta\n')
  await writeFile(join(outside, 'sub/x.txt'), 'x\n')
  await symlink('../outside/target.txt', join(ws, 'link.txt'))
  await symlink('../outside/dangling-target.txt', join(ws, 'dangling'))
  execFileSync('mkfifo', [join(ws, 'fifo')])
}

/** Where an absolute path physically lands: existing links followed, the rest as written. */
function physical(path: string): string {
  try {
    return realpathSync.native(path)
  } catch {
    const parent = dirname(path)
    return parent === path ? path : join(physical(parent), basename(path))
  }
}

function insideRoot(absolute: string): boolean {
  return absolute === root || absolute.startsWith(root + sep)
}

async function fuzz(): Promise<void> {
  const gen = new Generator(SEED, root, ws)
  const sessions = ['s1', 's2'].map((id) => testSession({ id, cwd: ws }))
  const loner = testSession({ id: 's3', cwd: ws })
  const aborted = new AbortController()
  aborted.abort()
  let before = snapshot(root)
  for (let i = 0; i < CALLS; i++) {
    const tool = gen.pick(TOOLS)
    const name = gen.chance(0.01) ? gen.pick(['READ', '', 'read ', 'toString', '__proto__']) : tool
    const args = gen.args(tool)
    const filePath = (args as { file_path?: unknown } | null | undefined)?.file_path
    const target =
      typeof filePath === 'string' && !filePath.includes('\0') ? resolve(ws, filePath) : undefined
    if (tool !== 'read' && target !== undefined && !insideRoot(physical(target))) {
      throw new Error(
        `seed ${SEED}, call ${i}: the generator aimed a ${tool} outside the root: ${filePath}`,
      )
    }
    const hadBom = target !== undefined && readHead(physical(target))
    const exec: ToolExecution = {
      callId: `fuzz-${i}`,
      name,
      arguments: args,
      // Most calls come from the two sessions that share the files; a few from one of its own.
      session: gen.chance(0.9) ? gen.pick(sessions) : loner,
      ...(gen.chance(0.01) && { signal: aborted.signal }),
    }
    const label = `seed ${SEED}, call ${i}: ${name} ${describeValue(args)}`
    let result: ToolExecutionResult
    try {
      result = await ctx.tools.execute(exec)
    } catch (error) {
      report.problems.push(`${label} threw ${String(error)}`)
      continue
    }
    report.calls++
    for (const problem of wellFormedProblems(exec, result))
      report.problems.push(`${label}: ${problem}`)
    const code = result.error?.code ?? (result.isError ? 'uncoded' : 'ok')
    report.codes.set(code, (report.codes.get(code) ?? 0) + 1)
    if (!result.isError && name === 'read') report.successes.read++
    // Reads and calls the registry refused never reach the disk's write path: their snapshots
    // are sampled (a change still shows at the next snapshot). Writes and edits are all checked.
    const reachedWrite = (name === 'write' || name === 'edit') && !code.startsWith('TOOL_')
    if (!reachedWrite && i % 10 !== 0) continue
    const after = snapshot(root)
    const changed = changes(before, after)
    before = after
    const mutated = !result.isError && (name === 'write' || name === 'edit')
    if (!mutated) {
      if (changed.length > 0) report.disk.push(`${label}: ${code} changed ${changed.join(', ')}`)
      continue
    }
    report.successes[tool]++
    const display = (result.details as { path?: unknown }).path
    if (display !== target)
      report.disk.push(`${label}: details.path ${String(display)} ≠ ${target}`)
    const file = physical(String(display))
    const stray = changed.filter((c) => {
      const path = c.replace(/^\w+ /, '')
      return path !== file && !(c.startsWith('created') && file.startsWith(path + sep))
    })
    if (stray.length > 0) report.disk.push(`${label}: also changed ${stray.join(', ')}`)
    if (name === 'write') {
      const content = String((args as { content: unknown }).content)
      // A file's BOM is kept, and content that brings its own U+FEFF does not get a second one.
      const addBom = hadBom && !content.startsWith('\uFEFF')
      const expected = Buffer.concat([addBom ? BOM : Buffer.alloc(0), Buffer.from(content, 'utf8')])
      if (!readFileSync(file).equals(expected))
        report.disk.push(`${label}: the file differs from the content written`)
    }
  }
}

/** True when the file at `path` starts with a UTF-8 BOM. */
function readHead(path: string): boolean {
  try {
    const stats = lstatSync(path)
    return stats.isFile() && readFileSync(path).subarray(0, 3).equals(BOM)
  } catch {
    return false
  }
}

beforeAll(async () => {
  console.log(`tool-fs fuzz seed ${SEED} (set DSH_FUZZ_SEED to replay)`)
  // tmpfs when the machine has one: thousands of fsyncs and snapshots stay cheap.
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir()
  root = await realpath(await mkdtemp(join(base, 'dsh-tool-fs-fuzz-')))
  ws = join(root, 'ws')
  mkdirSync(ws)
  await seed()
  ctx = new Context()
  await ctx.plugin(Stack, fileTools(ws))
  await fuzz()
  console.log(`tool-fs fuzz outcomes: ${describeValue([...report.codes])}`)
}, 180_000)

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true })
})

describe('fuzzed arguments to read, write and edit', () => {
  it('runs every generated call to a result without a throw', () => {
    expect(report.problems.filter((p) => p.includes(' threw ')).slice(0, 10)).toEqual([])
    expect(report.calls).toBe(CALLS)
  })

  it('gives a well-formed result with a coded error for every call', () => {
    expect(report.problems.slice(0, 20), `seed ${SEED}`).toEqual([])
    expect(report.codes.get('uncoded') ?? 0).toBe(0)
  })

  it('changes no file on a failed call or a read, and only its own file on a write or edit', () => {
    expect(report.disk.slice(0, 20), `seed ${SEED}`).toEqual([])
  })

  it('reaches success and the main refusals of each tool', () => {
    expect(report.successes.read, `seed ${SEED}`).toBeGreaterThan(100)
    expect(report.successes.write, `seed ${SEED}`).toBeGreaterThan(20)
    expect(report.successes.edit, `seed ${SEED}`).toBeGreaterThan(5)
    for (const code of [
      'TOOL_INVALID_ARGUMENTS',
      'TOOL_UNKNOWN',
      'FS_NOT_FOUND',
      'FS_NOT_OBSERVED',
      'FS_NOT_REGULAR_FILE',
      'FS_NOT_TEXT',
    ]) {
      expect(
        report.codes.get(code) ?? 0,
        `${code} (seed ${SEED}, seen ${describeValue([...report.codes])})`,
      ).toBeGreaterThan(0)
    }
  })

  it('leaves no temporary file anywhere under the root', () => {
    const leftovers = [...snapshot(root).keys()].filter((path) => path.endsWith('.dsh-tmp'))
    expect(leftovers).toEqual([])
  })
})
