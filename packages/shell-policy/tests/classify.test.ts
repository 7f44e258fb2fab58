// What "always allow" remembers of a command that is asked: each part that is not read-only
// by what it does (`git add …`, writing to a file), and a part that runs other programs, or
// changes what runs, only as the exact command.
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../src/classify'

/** The keys of the asked parts; `exact` when any of them is remembered only as the command. */
async function allowsOf(command: string): Promise<string[] | 'exact' | 'unknown'> {
  const classified = await classifyCommand(command)
  if (!classified.parsed) return 'unknown'
  const asked = classified.parts.filter((part) => !part.readOnly)
  if (asked.some((part) => part.allow === undefined)) return 'exact'
  return asked.map((part) => part.allow!.key)
}

describe('remembered by what they do', () => {
  it.each([
    ['echo hi > out.txt', ['> out.txt']],
    ['ls &> all.txt', ['> all.txt']],
    ['git status && ls | grep x > out.txt', ['> out.txt']],
    ['npm test > build.log', ['npm test', '> build.log']],
    ['git push origin main', ['git push']],
    ['git -C sub commit -m "x y"', ['git commit']],
    ['git --no-pager add . && git commit -m done', ['git add', 'git commit']],
    ['npm test | tail -40', ['npm test']],
    ['npm run build 2>&1 | grep error', ['npm run build']],
    ['pnpm run lint', ['pnpm run lint']],
    ['npx vitest run', ['npx vitest']],
    ['cargo test --release', ['cargo test']],
    ['make all', ['make all']],
    ['deno test | tail -40', ['deno test']],
    ['./scripts/build.sh --fast', ['./scripts/build.sh']],
    ['rm -rf build; ls', ['rm']],
    ['python3 -m pytest -x tests', ['python3 -m pytest']],
    ['python3 scripts/gen.py', ['python3 scripts/gen.py']],
    ['node build.js', ['node build.js']],
    ['bash scripts/ci.sh', ['bash scripts/ci.sh']],
    ['uv run pytest', ['uv run pytest']],
    ['uv run python -m pytest -q', ['uv run python -m pytest']],
    ['cargo run', ['cargo run']],
    ['go run main.go', ['go run main.go']],
    ['npx tsc --noEmit', ['npx tsc']],
    ['sort -o out.txt in.txt', ['sort']],
  ])('%s remembers %j', async (command, keys) => {
    expect(await allowsOf(command)).toEqual(keys)
  })
})

describe('remembered only as the exact command', () => {
  it.each([
    'git -c core.fsmonitor=./evil add .',
    'git --config-env=core.pager=X log',
    'git --exec-path=/tmp add .',
    'git --git-dir=/x/.git add .',
    'git --work-tree=/x add .',
    'git -C /elsewhere add .',
    'git -C ../other add .',
    'git my-alias',
    'git config core.fsmonitor ./evil',
    'git rebase -x "make test" main',
    'git rebase --exec=./x main',
    'git clone -c core.hooksPath=h repo',
    'git fetch --upload-pack=./x origin',
    'git submodule foreach ls',
    'GIT_DIR=/x git add .',
    'FOO=1 npm test',
    'npm test --script-shell=./x',
    'make -f other.mk',
    'make -j4 all',
    'make SHELL=./x',
    'cargo --config build.rustc=./x build',
    'python3',
    'python3 -c "print(1)"',
    'python3 -X importtime x.py',
    'node -e "1"',
    'node --require ./x.js build.js',
    'bash -c ls',
    'sh -c ls',
    'env ls',
    'env FOO=1 npm test',
    'xargs rm',
    'sudo npm test',
    'timeout 10 npm test',
    'nice make',
    'npx --package=x y',
    'uv run python -c "print(1)"',
    'uv run bash -c ls',
    'poetry run env X=1 y',
    'npx node -e 1',
    'deno eval "Deno.exit()"',
    'cargo run --release',
    'find . -delete',
    'sed -i s/a/b/ f',
    'awk "{ system(\\"x\\") }"',
    'for i in 1 2 3; do sleep 1; done',
    'x=1',
    '"$tool" --version',
    'npm test $EXTRA',
    'echo hi > "$OUT"',
  ])('%s', async (command) => {
    expect(await allowsOf(command)).toBe('exact')
  })
})

describe('unparseable input', () => {
  it.each(['echo "unterminated', 'if then fi', 'ls |', 'cat <<'])(
    '%s is unknown',
    async (command) => {
      expect(await allowsOf(command)).toBe('unknown')
    },
  )
})

describe('commands that need the network', () => {
  it.each([
    ['npm install', true],
    ['npm ci', true],
    ['pnpm add zod', true],
    ['yarn', true],
    ['yarn add zod', true],
    ['pip install requests', true],
    ['python3 -m pip install requests', true],
    ['cargo install ripgrep', true],
    ['cargo fetch', true],
    ['git clone https://example.com/x.git', true],
    ['git pull', true],
    ['curl -sS https://example.com', true],
    ['wget https://example.com', true],
    ['npm install --offline', false],
    ['npm test', false],
    ['git status', false],
    ['cargo build', false],
  ])('%s: %s', async (command, network) => {
    const classified = await classifyCommand(command)
    expect(classified.parsed && classified.parts.some((part) => part.network === true)).toBe(
      network,
    )
  })
})

describe('one parse a call', () => {
  it('the same command classified again is the same result, parsed once', async () => {
    const first = await classifyCommand('git add -- once.txt')
    const again = await classifyCommand('git add -- once.txt')
    expect(again).toBe(first)
    expect(await classifyCommand('git add -- other.txt')).not.toBe(first)
  })
})
