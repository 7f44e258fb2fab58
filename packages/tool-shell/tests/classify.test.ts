import { describe, expect, it } from 'vitest'
import { classifyCommand, isReadOnly } from '../src/classify'

async function judge(command: string): Promise<{ readOnly: boolean; asks: string[] } | 'unknown'> {
  const classified = await classifyCommand(command)
  if (!classified.parsed) return 'unknown'
  const asks = classified.parts.filter((part) => !part.readOnly).map((part) => part.prefix)
  return { readOnly: isReadOnly(classified.parts), asks }
}

describe('read-only commands', () => {
  it.each([
    'ls -la',
    'pwd',
    'cat a.txt b.txt',
    'head -5 a.txt',
    'tail -n 40 log.txt',
    'wc -l src/*.ts',
    'file a.bin',
    'stat a.txt',
    'which node',
    'echo hello',
    "printf '%s\\n' x",
    'rg -n foo src',
    'grep -r foo .',
    'find . -name "*.ts"',
    'git status',
    'git diff HEAD~1',
    'git log --oneline -5',
    'git show HEAD',
    'git rev-parse HEAD',
    'git ls-files',
    'git branch -a',
    'git --no-pager log',
    'ls 2>/dev/null',
    'echo hi >&2',
    'cat a.txt | sort | uniq | cut -d, -f1 | tr a-z A-Z',
    'git status && git diff; ls || pwd',
    '(cd_free=1; ls) 2>&1',
  ])('%s runs unasked', async (command) => {
    const judged = await judge(command)
    if (command.startsWith('(cd_free')) {
      // An assignment is a part the table cannot see through.
      expect(judged).toEqual({ readOnly: false, asks: ['cd_free=1'] })
      return
    }
    expect(judged).toEqual({ readOnly: true, asks: [] })
  })
})

describe('commands that are asked', () => {
  it.each([
    ['echo hi > out.txt', ['> out.txt']],
    ['cat a >> b', ['> b']],
    ['ls &> all.txt', ['> all.txt']],
    ['git status && ls | grep x > out.txt', ['> out.txt']],
    ['npm test > ~/.bashrc', ['npm test', '> ~/.bashrc']],
    ['echo $(rm -rf x)', ['echo', 'rm']],
    ['cat <(curl example.com)', ['cat', 'curl']],
    ['ls `touch x`', ['ls', 'touch']],
    ['find . -name x -delete', ['find']],
    ['find . -exec rm {} ;', ['find']],
    ['rg --pre ./x foo', ['rg']],
    ['sort -o out.txt in.txt', ['sort']],
    ['git branch -D old', ['git branch']],
    ['git diff --output=x.patch', ['git diff']],
    ['git push origin main', ['git push']],
    ['git -C sub commit -m "x y"', ['git commit']],
    ['git add . && git commit -m done', ['git add', 'git commit']],
    ['npm test | tail -40', ['npm test']],
    ['npm run build 2>&1 | grep error', ['npm run build']],
    ['pnpm run lint', ['pnpm run lint']],
    ['npx vitest run', ['npx vitest']],
    ['cargo test --release', ['cargo test']],
    ['make -j4 all', ['make all']],
    ['deno test | tail -40', ['deno']],
    ['./scripts/build.sh', ['./scripts/build.sh']],
    ['FOO=1 ls', ['ls']],
    ['rm -rf build; ls', ['rm']],
  ])('%s asks about %j', async (command, asks) => {
    expect(await judge(command)).toEqual({ readOnly: false, asks })
  })

  it('treats a loop as a part of its own', async () => {
    const judged = await judge('for f in *.ts; do cat "$f"; done')
    expect(judged).toEqual({ readOnly: false, asks: ['for f in *.ts; do cat "$f"; done'] })
  })

  it('treats a computed command name as its own text', async () => {
    expect(await judge('"$tool" --version')).toEqual({
      readOnly: false,
      asks: ['"$tool" --version'],
    })
  })
})

describe('unparseable input', () => {
  it.each(['echo "unterminated', 'if then fi', 'ls |', 'cat <<'])(
    '%s is unknown',
    async (command) => {
      expect(await judge(command)).toBe('unknown')
    },
  )
})
