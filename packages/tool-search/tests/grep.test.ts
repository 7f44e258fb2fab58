// grep on a real tree, against ripgrep run bare with the same flags: every output mode, the
// options, which files are searched, paging, and the caps with their closing lines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cutLine, RESULT_MAX_CHARS } from '../src/result-lines'
import { bareRipgrep, makeSearchTree, ripgrepsIn } from './helpers/tree'
import type { SearchTree } from './helpers/tree'
import { mountSearch } from './helpers/tools'
import type { SearchTools } from './helpers/tools'

let tree: SearchTree
let tools: SearchTools

beforeAll(async () => {
  tree = await makeSearchTree()
  tools = await mountSearch(tree.root)
})
afterAll(async () => {
  await tools.plugin.dispose()
  await tree.cleanup()
})

const SAME = ['--hidden', '--glob', '!.git', '--sort', 'path', '--color', 'never']

/** ripgrep's own lines for `args`, as the tool shows them: CR dropped, cut at 2,000. */
function bare(args: string[], cwd?: string): string[] {
  const out = bareRipgrep(tree, [...SAME, ...args], cwd)
  return out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => cutLine(line.endsWith('\r') ? line.slice(0, -1) : line))
}

async function grep(args: Record<string, unknown>) {
  const result = await tools.call('grep', args)
  expect(result.isError, tools.text(result)).toBe(false)
  return tools.text(result)
}

describe('results equal ripgrep’s for the same flags', () => {
  it('files_with_matches lists what rg -l lists, in path order', async () => {
    const ours = (await grep({ pattern: 'needle', head_limit: 0 })).split('\n')
    expect(ours).toEqual(bare(['--files-with-matches', 'needle']))
    expect(ours.length).toBeGreaterThan(8)
  })

  it('count gives what rg -c gives', async () => {
    const ours = (await grep({ pattern: 'needle', output_mode: 'count', head_limit: 0 })).split(
      '\n',
    )
    expect(ours).toEqual(bare(['--count', 'needle']))
    expect(ours).toContain('many/lines.txt:600')
  })

  it('content gives rg -n lines, the 20 MB line cut at 2,000 characters', async () => {
    const ours = (await grep({ pattern: 'needle', output_mode: 'content', head_limit: 0 })).split(
      '\n',
    )
    expect(ours).toEqual(bare(['--line-number', '--with-filename', '--no-heading', 'needle']))
    const minified = ours.find((line) => line.startsWith('vendor/app.min.js:1:'))
    expect(minified?.endsWith('... (line truncated to 2000 chars)')).toBe(true)
  })

  it('content with context gives rg -C lines and -- between groups', async () => {
    const args = ['--line-number', '--with-filename', '--no-heading', '--context', '2']
    const ours = await grep({ pattern: 'needle', path: 'src', output_mode: 'content', context: 2 })
    expect(ours.split('\n')).toEqual(bare([...args, 'needle', 'src']))
    expect(ours).toContain('src/deep/nested/util.ts-3-const b = 3')
    expect(ours).toContain('\n--\n')
  })

  it('case_insensitive, fixed_strings and multiline give what -i, -F and -U give', async () => {
    const lines = ['--line-number', '--with-filename', '--no-heading']
    const insensitive = await grep({
      pattern: 'NEEDLE case',
      output_mode: 'content',
      case_insensitive: true,
    })
    expect(insensitive.split('\n')).toEqual(bare([...lines, '-i', 'NEEDLE case']))
    expect(insensitive).toBe('src/app.ts:3:// TODO: Needle case')
    const fixed = await grep({ pattern: 'needle(', output_mode: 'content', fixed_strings: true })
    expect(fixed.split('\n')).toEqual(bare([...lines, '-F', 'needle(']))
    expect(fixed).toContain('src/app.ts:2:export const app = needle(1)')
    const multi = await grep({
      pattern: 'needle = 2\\nconst b',
      output_mode: 'content',
      multiline: true,
    })
    expect(multi.split('\n')).toEqual(
      bare([...lines, '-U', '--multiline-dotall', 'needle = 2\\nconst b']),
    )
    expect(multi).toBe(
      'src/deep/nested/util.ts:2:const needle = 2\nsrc/deep/nested/util.ts:3:const b = 3',
    )
  })
})

describe('which files are searched', () => {
  it('hidden folders yes; .git, ignored files, the binary and the link out no', async () => {
    const files = (await grep({ pattern: 'needle', head_limit: 0 })).split('\n')
    expect(files).toEqual(expect.arrayContaining(['.hidden/conf.ts', '.github/workflows/ci.yml']))
    expect(files).toEqual(expect.arrayContaining(['keep.log', 'src/important.tmp']))
    for (const left of ['debug.log', 'build/out.js', 'src/gen/generated.ts', 'src/cache.tmp']) {
      expect(files).not.toContain(left)
    }
    expect(files).not.toContain('secret.txt')
    expect(files).not.toContain('bin.dat')
    expect(files.some((file) => file.startsWith('.git/'))).toBe(false)
    expect(files.some((file) => file.startsWith('link-out'))).toBe(false)
  })

  it('a glob narrows without letting ignored files back in (unlike rg --glob)', async () => {
    const ours = (await grep({ pattern: 'needle', glob: '*.ts' })).split('\n')
    expect(ours).toEqual(['.hidden/conf.ts', 'src/app.ts', 'src/deep/nested/util.ts', 'src/lib.ts'])
    expect(await grep({ pattern: 'needle', glob: '*.log' })).toBe('keep.log')
    expect(bare(['-l', '--glob', '*.log', 'needle'])).toContain('debug.log')
    const under = await grep({ pattern: 'needle', glob: 'deep/**/*.{ts,js}', path: 'src' })
    expect(under).toBe('src/deep/nested/util.ts')
  })

  it('CRLF lines lose their CR and Latin-1 bytes read as U+FFFD', async () => {
    const crlf = await grep({ pattern: 'needle', path: 'crlf.txt', output_mode: 'content' })
    expect(crlf).toBe('crlf.txt:1:first needle\ncrlf.txt:3:third needle')
    const latin = await grep({ pattern: 'caf', path: 'latin1.txt', output_mode: 'content' })
    expect(latin).toBe('latin1.txt:1:caf\ufffd needle \ufffd')
  })

  it('a path outside the workspace prints absolute paths', async () => {
    const out = await grep({ pattern: 'needle', path: tree.outside })
    expect(out).toBe(`${tree.outside}/escaped.ts`)
  })
})

describe('paging and caps', () => {
  it('head_limit 250 by default, then a closing line with the next offset', async () => {
    const out = await grep({ pattern: 'needle', path: 'many', output_mode: 'content' })
    const lines = out.split('\n')
    expect(lines.slice(0, 250)).toEqual(
      bare(['--line-number', '--with-filename', '--no-heading', 'needle', 'many']).slice(0, 250),
    )
    expect(lines.at(-1)).toBe(
      '(Showing result lines 1-250; there are more. Use offset=250 to see the next ones, or search a narrower path or glob.)',
    )
  })

  it('offset pages through the result: two pages are the first two hundred lines', async () => {
    const page = (offset: number) =>
      grep({ pattern: 'needle', path: 'many', output_mode: 'content', head_limit: 100, offset })
    const whole = await grep({
      pattern: 'needle',
      path: 'many',
      output_mode: 'content',
      head_limit: 200,
    })
    const [first, second] = await Promise.all([page(0), page(100)])
    const body = (text: string) => text.split('\n\n(')[0]
    expect(`${body(first)}\n${body(second)}`).toBe(body(whole))
    expect(second).toContain('Showing result lines 101-200')
    const last = await grep({
      pattern: 'needle',
      path: 'many',
      output_mode: 'content',
      offset: 550,
    })
    expect(last.split('\n')).toHaveLength(50)
    expect(
      await grep({ pattern: 'needle', path: 'many', output_mode: 'content', offset: 600 }),
    ).toBe('No results past offset 600: the search has 600 result lines. Use an offset below 600.')
  })

  it('with head_limit 0 a flood stops at 30,000 characters and ripgrep is ended', async () => {
    const out = await grep({ pattern: '.', output_mode: 'content', head_limit: 0 })
    const [body, closing] = out.split('\n\n(Output capped')
    expect(body!.length).toBeLessThanOrEqual(RESULT_MAX_CHARS)
    expect(body!.length).toBeGreaterThan(RESULT_MAX_CHARS - 2100)
    expect(closing).toMatch(
      /^ at 30,000 characters: showing result lines 1-\d+; there are more\. Use offset=\d+/,
    )
    expect(await ripgrepsIn(tree.root, tree.rg)).toEqual([])
  })

  it('a pattern starting with a dash is a pattern, not a flag', async () => {
    expect(await grep({ pattern: '-x', path: 'src', output_mode: 'count' })).toBe(
      'No matches found.',
    )
    expect(await grep({ pattern: '--', path: 'src' })).toBe('No matches found.')
  })

  it('no match says so', async () => {
    expect(await grep({ pattern: 'no such text anywhere' })).toBe('No matches found.')
  })
})
