import { describe, expect, it } from 'vitest'
import { appStack } from '../src/app-stack'
import { parseCli, USAGE } from '../src/cli/cli'
import { cliFlags } from '../src/cli/cli-schema'
import { zedSettings } from '../src/cli/zed-settings'

describe('flags that select a command', () => {
  it('no flags serve with no model options', () => {
    expect(parseCli([])).toEqual({ kind: 'serve' })
  })

  it('script, model and base url are passed through', () => {
    expect(
      parseCli([
        '--script',
        'a.json',
        '--model',
        'deepseek-reasoner',
        '--base-url',
        'http://127.0.0.1:9/v1',
      ]),
    ).toEqual({
      kind: 'serve',
      script: 'a.json',
      llm: { model: 'deepseek-reasoner', baseUrl: 'http://127.0.0.1:9/v1' },
    })
  })

  it('a mode id starts new sessions in that mode', () => {
    expect(parseCli(['--mode', 'auto-edit'])).toEqual({ kind: 'serve', mode: 'auto-edit' })
  })

  it('the editor timeout is taken in seconds', () => {
    expect(parseCli(['--editor-timeout', '2.5'])).toEqual({
      kind: 'serve',
      fsAcp: { timeoutMs: 2500 },
    })
  })

  it('the mcp timeout is taken in seconds', () => {
    expect(parseCli(['--mcp-timeout', '0.5'])).toEqual({
      kind: 'serve',
      mcp: { callTimeoutMs: 500 },
    })
  })

  it('the sandbox can be turned off and its network on', () => {
    expect(parseCli(['--sandbox', 'off', '--sandbox-network'])).toEqual({
      kind: 'serve',
      sandbox: { enabled: false, network: true },
    })
  })

  it('--pass-env is taken once per name, repeated for more', () => {
    expect(parseCli(['--pass-env', 'GITHUB_TOKEN', '--pass-env', 'NPM_TOKEN'])).toEqual({
      kind: 'serve',
      passEnv: ['GITHUB_TOKEN', 'NPM_TOKEN'],
    })
  })

  it('a --pass-env value that is not a variable name is an error saying so', () => {
    expect(parseCli(['--pass-env', 'A=B'])).toEqual({
      kind: 'error',
      message: '--pass-env takes a variable name (letters, digits, _), got "A=B"',
    })
  })

  it('a sandbox value other than on or off is an error naming both', () => {
    expect(parseCli(['--sandbox', 'maybe'])).toEqual({
      kind: 'error',
      message: '--sandbox must be on or off, got "maybe"',
    })
  })

  it('the equals form of a flag is accepted', () => {
    expect(parseCli(['--script=s.json'])).toEqual({ kind: 'serve', script: 's.json' })
  })

  it('help wins over other flags', () => {
    expect(parseCli(['--script', 'a.json', '--help'])).toEqual({ kind: 'help' })
  })

  it('version is a command of its own', () => {
    expect(parseCli(['--version'])).toEqual({ kind: 'version' })
  })

  it('the usage text names every flag and the key variable', () => {
    for (const word of [
      '--script',
      '--model',
      '--base-url',
      '--mode',
      'full-access',
      '--editor-timeout',
      '--context-window',
      'DSH_API_KEY',
      'OPENAI_API_KEY',
      '--help',
      '--version',
      '--sandbox',
      '--sandbox-network',
      'bubblewrap',
      'DEEPSEEK_API_KEY',
      '--login',
      '--logout',
      'credentials.json',
    ]) {
      expect(USAGE).toContain(word)
    }
  })
})

describe('the context window', () => {
  it('--context-window takes whole tokens', () => {
    expect(parseCli(['--context-window', '65536'])).toEqual({
      kind: 'serve',
      llm: { contextWindow: 65536 },
    })
  })

  it('a context window that is not a whole number of at least 1024 tokens is refused', () => {
    for (const value of ['12.5', '1000', 'lots', '0']) {
      expect(parseCli(['--context-window', value])).toEqual({
        kind: 'error',
        message: `--context-window takes a whole number of tokens, at least 1024, got "${value}"`,
      })
    }
  })
})

describe('bad flags', () => {
  it('an unknown long flag is named', () => {
    expect(parseCli(['--verbose'])).toEqual({ kind: 'error', message: 'unknown option --verbose' })
  })

  it('an unknown short flag is named', () => {
    expect(parseCli(['-x'])).toEqual({ kind: 'error', message: 'unknown option -x' })
  })

  it('a flag missing its value at the end says it needs one', () => {
    expect(parseCli(['--script'])).toEqual({ kind: 'error', message: '--script needs a value' })
  })

  it('a flag followed by another flag says it needs a value', () => {
    expect(parseCli(['--model', '--help'])).toEqual({
      kind: 'error',
      message: '--model needs a value',
    })
  })

  it('an empty value is refused', () => {
    expect(parseCli(['--script', ''])).toEqual({
      kind: 'error',
      message: '--script needs a non-empty value',
    })
  })

  it('a value given to a switch is refused', () => {
    expect(parseCli(['--help=yes'])).toEqual({ kind: 'error', message: '--help takes no value' })
  })

  it('a positional argument is refused', () => {
    expect(parseCli(['script.json'])).toEqual({
      kind: 'error',
      message: 'unexpected argument "script.json"',
    })
  })

  it('a base url that is not http(s) is refused', () => {
    expect(parseCli(['--base-url', 'api.deepseek.com'])).toEqual({
      kind: 'error',
      message: '--base-url must be an http(s) URL, got "api.deepseek.com"',
    })
  })

  it('an unknown mode is refused naming the modes', () => {
    expect(parseCli(['--mode', 'yolo'])).toEqual({
      kind: 'error',
      message: '--mode must be one of ask, auto-edit, read-only, full-access, plan, got "yolo"',
    })
  })

  it('an mcp timeout that is not a positive number of seconds is refused', () => {
    for (const value of ['0', 'never', '3601']) {
      expect(parseCli(['--mcp-timeout', value])).toEqual({
        kind: 'error',
        message: `--mcp-timeout takes seconds, more than 0 and at most 3600, got "${value}"`,
      })
    }
  })

  it('an editor timeout that is not a positive number of seconds is refused', () => {
    for (const value of ['0', 'soon', '3601', '1e400']) {
      expect(parseCli(['--editor-timeout', value])).toEqual({
        kind: 'error',
        message: `--editor-timeout takes seconds, more than 0 and at most 3600, got "${value}"`,
      })
    }
  })
})

describe('the login', () => {
  it('--login and --logout take the server of --base-url, beside the serving flags an editor adds', () => {
    expect(parseCli(['--login'])).toEqual({ kind: 'login' })
    expect(parseCli(['--mode', 'ask', '--base-url', 'http://127.0.0.1:1/v1', '--login'])).toEqual({
      kind: 'login',
      baseUrl: 'http://127.0.0.1:1/v1',
    })
    expect(parseCli(['--logout'])).toEqual({ kind: 'logout' })
  })

  it('both at once, or a bad --base-url with them, is refused', () => {
    expect(parseCli(['--login', '--logout'])).toEqual({
      kind: 'error',
      message: 'give --login or --logout, not both',
    })
    expect(parseCli(['--login', '--base-url', 'x']).kind).toBe('error')
  })
})

describe('the Zed settings entry', () => {
  it('--print-zed-settings keeps the other flags, checked as for serving', () => {
    expect(parseCli(['--print-zed-settings', '--mode', 'auto-edit'])).toEqual({
      kind: 'zed-settings',
      flags: ['--mode', 'auto-edit'],
    })
    expect(parseCli(['--print-zed-settings', '--mode', 'nope']).kind).toBe('error')
  })

  it('started through the installed link, the entry names the link and a key variable', () => {
    const printed = zedSettings({
      flags: [],
      started: '/usr/local/bin/dsh-acp',
      execPath: '/usr/bin/node',
      keyVariable: 'DSH_API_KEY',
    })
    expect(JSON.parse(printed)).toEqual({
      agent_servers: {
        dsh: {
          type: 'custom',
          command: '/usr/local/bin/dsh-acp',
          args: [],
          env: { DSH_API_KEY: 'your key here' },
        },
      },
    })
  })

  it('started by path with a local server, the entry runs node on the file and names no key', () => {
    const printed = zedSettings({
      flags: ['--base-url', 'http://127.0.0.1:11434/v1', '--model', 'qwen3:8b'],
      started: '/home/me/dsh/packages/acp-agent/dist/bin.js',
      execPath: '/usr/bin/node',
    })
    expect(JSON.parse(printed).agent_servers.dsh).toEqual({
      type: 'custom',
      command: '/usr/bin/node',
      args: [
        '/home/me/dsh/packages/acp-agent/dist/bin.js',
        '--base-url',
        'http://127.0.0.1:11434/v1',
        '--model',
        'qwen3:8b',
      ],
    })
  })
})

describe('the flags and the config keys', () => {
  it('every flag --help lists is parsed, and every parsed flag is listed', () => {
    const options = USAGE.slice(USAGE.indexOf('Options:'), USAGE.indexOf('Environment:'))
    const listed = new Set([...options.matchAll(/^ {2}--([a-z-]+)/gm)].map((match) => match[1]))
    const parsed = new Set([
      ...cliFlags().map(({ flag }) => flag.name),
      'print-zed-settings',
      'login',
      'logout',
      'help',
      'version',
    ])
    expect([...listed].sort()).toEqual([...parsed].sort())
  })

  it('a serving flag reaches the stack under the key its plugin reads', () => {
    const command = parseCli([
      '--editor-timeout',
      '2',
      '--mcp-timeout',
      '3',
      '--mode',
      'plan',
      '--web-allow-private',
    ])
    if (command.kind !== 'serve') throw new Error(`not served: ${JSON.stringify(command)}`)
    const { kind: _kind, script: _script, llm: _llm, sessions: _sessions, web, ...flags } = command
    const stack = appStack({
      ...flags,
      web: { ...web, deepseek: undefined },
      llm: { kind: 'unconfigured' },
    })
    expect(stack.fsAcp).toEqual({ timeoutMs: 2000 })
    expect(stack.mcp).toEqual({ callTimeoutMs: 3000 })
    expect(stack.permission).toEqual({ defaultMode: 'plan' })
    expect(stack.web).toEqual({ allowPrivate: true })
  })
})

describe('blank values', () => {
  it('a blank search url is named as not a url, a blank model as empty', () => {
    expect(parseCli(['--web-search-url', ''])).toEqual({
      kind: 'error',
      message: '--web-search-url must be an http(s) URL, got ""',
    })
    expect(parseCli(['--web-search-deepseek-url', ' '])).toEqual({
      kind: 'error',
      message: '--web-search-deepseek-url must be an http(s) URL, got " "',
    })
    expect(parseCli(['--model', ' '])).toEqual({
      kind: 'error',
      message: '--model needs a non-empty value',
    })
    expect(parseCli(['--sandbox', ''])).toEqual({
      kind: 'error',
      message: '--sandbox must be on or off, got ""',
    })
  })
})
