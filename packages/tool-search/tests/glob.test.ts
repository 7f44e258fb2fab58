// glob on a real tree: the files ripgrep lists (ignore files honoured), matched relative to the
// path, newest modified first with ties by path, the cap of 100 and its closing line.
import { chmod, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileGlob, nameFilterFlags } from '../src/glob-match'
import { bareRipgrep, makeSearchTree } from './helpers/tree'
import type { SearchTree } from './helpers/tree'
import { mountSearch } from './helpers/tools'
import type { SearchTools } from './helpers/tools'

let tree: SearchTree
let tools: SearchTools

beforeAll(async () => {
  tree = await makeSearchTree()
  tools = await mountSearch(tree.root)
})
afterAll(() => tree.cleanup())

async function glob(args: Record<string, unknown>) {
  const result = await tools.call('glob', args)
  expect(result.isError, tools.text(result)).toBe(false)
  return tools.text(result)
}

describe('what glob finds', () => {
  it('**/*.ts is every .ts file rg --files lists, newest first', async () => {
    const ours = (await glob({ pattern: '**/*.ts' })).split('\n')
    const listed = bareRipgrep(tree, ['--files', '--hidden', '--glob', '!.git']).split('\n')
    expect([...ours].sort()).toEqual(listed.filter((path) => path.endsWith('.ts')).sort())
    expect(ours).toEqual(['.hidden/conf.ts', 'src/deep/nested/util.ts', 'src/lib.ts', 'src/app.ts'])
  })

  it('matches relative to the path: * stays in one directory, ** crosses them', async () => {
    expect(await glob({ pattern: '*.ts', path: 'src' })).toBe('src/lib.ts\nsrc/app.ts')
    expect(await glob({ pattern: 'src/*.ts' })).toBe('src/lib.ts\nsrc/app.ts')
    expect(await glob({ pattern: '**/nested/*.ts', path: 'src' })).toBe('src/deep/nested/util.ts')
    expect(await glob({ pattern: '*.{log,md}' })).toBe('notes with space.md\nkeep.log')
    expect(await glob({ pattern: 'flat/f00[12].txt' })).toBe('flat/f001.txt\nflat/f002.txt')
    expect(await glob({ pattern: 'src/?pp.ts' })).toBe('src/app.ts')
  })

  it('a pattern with no match at the top hints at **', async () => {
    expect(await glob({ pattern: '*.ts' })).toBe(
      'No files found. "*.ts" matches only directly under the path; "**/*.ts" matches at any depth.',
    )
  })

  it('leaves out ignored files, .git and the link out; keeps hidden ones', async () => {
    const listed = await glob({ pattern: '**', path: '.' })
    expect(listed).toContain('keep.log\n')
    expect(listed).not.toMatch(/debug\.log|cache\.tmp|secret\.txt|generated\.ts|\.git\/|link-out/)
    expect(await glob({ pattern: '.github/**' })).toBe('.github/workflows/ci.yml')
    // Given as the root, the link is searched where it points (the permission layer judges
    // its real path); met inside the tree, it is never followed.
    expect(await glob({ pattern: '**/*.ts', path: 'link-out' })).toBe('link-out/escaped.ts')
  })

  it('shows 100 files then says how many more matched; equal times sort by path', async () => {
    const lines = (await glob({ pattern: 'flat/*.txt' })).split('\n')
    expect(lines.slice(0, 100)).toEqual(
      Array.from({ length: 100 }, (_, i) => `flat/f${String(i + 1).padStart(3, '0')}.txt`),
    )
    expect(lines.slice(100)).toEqual([
      '',
      '(50 more files matched; showing the 100 most recently modified. Narrow the search: a longer pattern or a path.)',
    ])
  })

  it('a file deleted after ripgrep listed it sorts last; the call stands', async () => {
    // ripgrep runs for real; the file goes between its listing and the tool's stat.
    const dir = await mkdtemp(join(tmpdir(), 'dsh-glob-gone-'))
    try {
      for (const [name, seconds] of [
        ['a.txt', 1_000],
        ['b.txt', 2_000],
        ['gone.txt', 3_000],
      ] as const) {
        await writeFile(join(dir, name), name)
        await utimes(join(dir, name), seconds, seconds)
      }
      const rg = join(dir, 'rg-then-delete.sh')
      await writeFile(
        rg,
        `#!/bin/sh\n"${tree.rg}" "$@" > "${dir}/listing"\nstatus=$?\n` +
          `rm "${dir}/gone.txt"\ncat "${dir}/listing"\nexit $status\n`,
      )
      await chmod(rg, 0o755)
      const wrapped = await mountSearch(dir, { rgPath: rg })
      const result = await wrapped.call('glob', { pattern: '*.txt' })
      expect(wrapped.text(result)).toBe('b.txt\na.txt\ngone.txt')
      await wrapped.plugin.dispose()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('gives the same files in the same order whichever way ripgrep walks', async () => {
    // On this machine's cores glob may have ripgrep walk on one thread (`--sort path`); a
    // ripgrep that drops that flag and walks on four threads must change nothing.
    const dir = await mkdtemp(join(tmpdir(), 'dsh-glob-walk-'))
    try {
      const rg = join(dir, 'rg-parallel.sh')
      await writeFile(
        rg,
        '#!/bin/sh\nskip=0\nfor arg in "$@"; do\n  shift\n' +
          '  if [ $skip = 1 ]; then skip=0; continue; fi\n' +
          '  if [ "$arg" = --sort ]; then skip=1; continue; fi\n  set -- "$@" "$arg"\ndone\n' +
          `exec "${tree.rg}" --threads 4 "$@"\n`,
      )
      await chmod(rg, 0o755)
      const parallel = await mountSearch(tree.root, { rgPath: rg })
      for (const pattern of ['**', '**/*.ts', 'flat/*.txt']) {
        const result = await parallel.call('glob', { pattern })
        expect(parallel.text(result), pattern).toBe(await glob({ pattern }))
      }
      await parallel.plugin.dispose()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('a file or a missing path is a clear error', async () => {
    const file = await tools.call('glob', { pattern: '*', path: 'src/app.ts' })
    expect(file.error?.code).toBe('SEARCH_NOT_SEARCHABLE')
    expect(tools.text(file)).toContain('is a file')
    const missing = await tools.call('glob', { pattern: '*', path: 'nope' })
    expect(missing.error?.code).toBe('SEARCH_NOT_FOUND')
    expect(tools.text(missing)).toContain(`Path not found: ${tree.root}/nope`)
    const bad = await tools.call('glob', { pattern: 'src/[ab' })
    expect(bad.error?.code).toBe('SEARCH_INVALID_PATTERN')
  })
})

describe('the glob matcher', () => {
  it.each([
    ['**/*.ts', 'a/b/c.ts', true],
    ['**/*.ts', 'c.ts', true],
    ['*.ts', 'a/c.ts', false],
    ['a/**', 'a/b/c', true],
    ['a/**/c', 'a/c', true],
    ['a/**/c', 'a/x/y/c', true],
    ['*.{js,jsx}', 'x.jsx', true],
    ['{src,lib}/**/*.{a,b}', 'lib/x/y.b', true],
    ['[!a]*', 'bcd', true],
    ['[!a]*', 'abc', false],
    ['\\[x\\].md', '[x].md', true],
    ['*', '.hidden', true],
    ['a?c', 'a/c', false],
    ['/top.txt', 'top.txt', true],
  ])('%s against %s is %s', (pattern, path, expected) => {
    expect(compileGlob(pattern, false)(path)).toBe(expected)
  })

  it('a pattern without a slash matches file names at any depth for grep', () => {
    expect(compileGlob('*.ts', true)('a/b/c.ts')).toBe(true)
    expect(compileGlob('/*.ts', true)('a/b/c.ts')).toBe(false)
  })

  it('ripgrep prefilters by the last segment only where its type syntax reads it alike', () => {
    const type = (name: string) => ['--type-add', `dshsearch:${name}`, '--type', 'dshsearch']
    expect(nameFilterFlags('src/**/*.{ts,tsx}')).toEqual(type('*.{ts,tsx}'))
    expect(nameFilterFlags('*.d.ts')).toEqual(type('*.d.ts'))
    for (const unsafe of ['src/**', 'a,b', 'x:y', '\\*', '{a/b,c}.ts', '']) {
      expect(nameFilterFlags(unsafe), unsafe).toEqual([])
    }
  })
})
