// The tree the search tests run on, written to a fresh temp directory: a git repository with
// nested .gitignore files (one with a negation), a .ignore, hidden folders, a binary file, a
// symlink to a folder outside, CRLF and Latin-1 files, a 20 MB one-line minified file, a file
// of many matching lines (paging, caps) and a 30 MB file of short lines (a slow count).
import { execFileSync, spawnSync } from 'node:child_process'
import {
  mkdir,
  mkdtemp,
  readdir,
  readlink,
  realpath,
  rm,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { ripgrepPath } from '../../src/engine'

export interface SearchTree {
  root: string
  outside: string
  rg: string
  cleanup(): Promise<void>
}

export const MINIFIED_BYTES = 20 * 1024 * 1024

const FILES: Record<string, string | Buffer> = {
  '.gitignore': '*.log\nbuild/\n!keep.log\n',
  'src/.gitignore': 'gen/\n*.tmp\n!important.tmp\n',
  '.ignore': 'secret.txt\n',
  'src/app.ts':
    'import { needle } from "./lib"\nexport const app = needle(1)\n// TODO: Needle case\n',
  'src/lib.ts': 'export function needle(n: number) {\n  return n + 1\n}\n',
  'src/deep/nested/util.ts':
    'const a = 1\nconst needle = 2\nconst b = 3\nconst c = 4\nconst needle2 = 5\n',
  'src/gen/generated.ts': 'export const needle = "generated"\n',
  'src/cache.tmp': 'needle in a tmp file\n',
  'src/important.tmp': 'needle kept by a negation\n',
  'debug.log': 'needle in a log\n',
  'keep.log': 'needle in the kept log\n',
  'build/out.js': 'needle built\n',
  'secret.txt': 'needle secret\n',
  '.hidden/conf.ts': 'export const needle = "hidden"\n',
  '.github/workflows/ci.yml': 'run: echo needle\n',
  'docs/readme.md': '# Docs\n\nNo match here.\n',
  'crlf.txt': 'first needle\r\nsecond line\r\nthird needle\r\n',
  'latin1.txt': Buffer.from('caf\xe9 needle \xfc\nplain needle\n', 'latin1'),
  'bin.dat': Buffer.concat([
    Buffer.from('needle'),
    Buffer.from([0, 1, 2, 0]),
    Buffer.from('needle\n'),
  ]),
  'notes with space.md': 'a needle: with a colon\n',
}

/** 600 lines, each a match of `needle`, for paging and the caps. */
function manyLines(): string {
  return (
    Array.from({ length: 600 }, (_, i) => `line ${i + 1} has a needle ${'x'.repeat(i % 7)}`).join(
      '\n',
    ) + '\n'
  )
}

/** One line of 20 MiB of minified-looking code with `needle` near its end. */
function minified(): string {
  const unit = 'var a=function(b){return b+1};'
  const body = unit.repeat(Math.ceil((MINIFIED_BYTES - 32) / unit.length))
  return `${body.slice(0, MINIFIED_BYTES - 32)}needle();\n`
}

export async function makeSearchTree(): Promise<SearchTree> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'dsh-search-')))
  const outside = await realpath(await mkdtemp(join(tmpdir(), 'dsh-search-outside-')))
  execFileSync('git', ['init', '-q', root])
  const files: Record<string, string | Buffer> = {
    ...FILES,
    'many/lines.txt': manyLines(),
    'vendor/app.min.js': minified(),
    'slow/short-lines.txt': 'ab\n'.repeat(10_000_000),
  }
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), content)
  }
  await writeFile(join(root, '.git', 'needle-note.txt'), 'needle inside .git\n')
  // 150 files with one modification time: glob's cap, and ties ordered by path.
  await mkdir(join(root, 'flat'))
  const tie = new Date('2023-06-01T00:00:00Z')
  for (let i = 1; i <= 150; i++) {
    const path = join(root, 'flat', `f${String(i).padStart(3, '0')}.txt`)
    await writeFile(path, `file ${i}\n`)
    await utimes(path, tie, tie)
  }
  await writeFile(join(outside, 'escaped.ts'), 'export const needle = "outside"\n')
  await symlink(outside, join(root, 'link-out'))
  // Distinct modification times, oldest first in FILES order, so "newest first" is checkable.
  let when = Date.parse('2024-01-01T00:00:00Z') / 1000
  for (const path of Object.keys(files)) {
    when += 60
    await utimes(join(root, path), when, when)
  }
  return {
    root,
    outside,
    rg: await ripgrepPath(),
    cleanup: async () => {
      await rm(root, { recursive: true, force: true })
      await rm(outside, { recursive: true, force: true })
    },
  }
}

/** ripgrep run bare in `cwd` with `args`: its stdout, decoded as the tools decode it. */
export function bareRipgrep(tree: SearchTree, args: string[], cwd = tree.root): string {
  const run = spawnSync(tree.rg, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  })
  if (run.status === 2) throw new Error(`rg failed: ${run.stderr.toString()}`)
  return new TextDecoder().decode(run.stdout)
}

/** The pids of running ripgrep processes whose working directory is `dir` (from /proc). */
export async function ripgrepsIn(dir: string, rg: string): Promise<number[]> {
  const pids: number[] = []
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const [exe, cwd] = await Promise.all([
        readlink(`/proc/${entry}/exe`),
        readlink(`/proc/${entry}/cwd`),
      ])
      if (exe === rg && cwd === dir) pids.push(Number(entry))
    } catch {
      // The process ended while it was looked at, or is not ours to inspect.
    }
  }
  return pids
}
