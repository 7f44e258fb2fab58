// Command-line parsing for the `dsh-acp` bin: flags in, a plain decision out.
// Pure (no I/O, no process access), so tests cover every flag and every bad input directly.
// It does not read the script file or the environment; the bin does that after parsing.
import { parseArgs } from 'node:util'
import { PERMISSION_MODES, isPermissionModeId } from '@deepseek-ai/dsh-permission'
import type { PermissionModeId } from '@deepseek-ai/dsh-permission'

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | {
      kind: 'serve'
      script?: string
      model?: string
      baseUrl?: string
      mode?: PermissionModeId
      editorTimeoutMs?: number
      sessions?: string
      contextWindow?: number
      imageInput?: boolean
      mcpTimeoutMs?: number
      sandbox?: 'on' | 'off'
      sandboxNetwork?: boolean
      passEnv?: string[]
      webAllowPrivate?: boolean
      webSearchUrl?: string
      webSearchDeepseek?: boolean
      webSearchDeepseekUrl?: string
    }
  /** Ask for the key of the server (`--base-url`'s, default DeepSeek's), check it, store it. */
  | { kind: 'login'; baseUrl?: string }
  /** Remove the stored key of the server. */
  | { kind: 'logout'; baseUrl?: string }
  /** Print Zed's settings entry for these flags (the others given, checked as for serving). */
  | { kind: 'zed-settings'; flags: string[] }
  | { kind: 'error'; message: string }

export const USAGE = `Usage: dsh-acp [options]

Runs the dsh coding agent over the Agent Client Protocol (ACP) on stdio.
An ACP client (an editor such as Zed) starts it; stdout carries only protocol
frames, logs go to stderr.

Options:
  --script FILE     play a scripted model from a JSON script file
  --model NAME      model name for the OpenAI-compatible server (default
                    deepseek-flash; deepseek-chat, deepseek-reasoner and the V4 Flash
                    aliases are sent as deepseek-flash)
  --base-url URL    base URL of the OpenAI-compatible server (default
                    https://api.deepseek.com); on its own it selects that server,
                    with or without a key
  --context-window TOKENS
                    the model's context window, for every model (default: the
                    model's known window, else 32768)
  --image-input     the --model given takes images (a local server's model that
                    dsh does not know); default: what dsh knows of the model
  --mode ID         the mode new sessions start in (default ask):
${PERMISSION_MODES.map((mode) => `                      ${mode.id.padEnd(12)}${mode.name}`).join('\n')}
  --sessions DIR    where sessions are stored, to be listed, loaded and resumed
                    (default $XDG_STATE_HOME/dsh/sessions, else
                    ~/.local/state/dsh/sessions)
  --editor-timeout SECONDS
                    the longest wait for the editor to answer a file read
                    (default 30; past it the session's files are the disk's);
                    a write waits until the editor answers or is cancelled
  --mcp-timeout SECONDS
                    the longest wait for one call of an MCP server's tool; past
                    it the call is cancelled on the server (default 60)
  --sandbox on|off  run commands in the sandbox (default on; see below)
  --sandbox-network let sandboxed commands reach the network (default: no
                    network in the sandbox)
  --print-zed-settings
                    print the agent_servers entry of Zed's settings.json that
                    starts this install with the other flags given, and exit
  --login           ask for the server's API key (typed without echo, or the
                    first line of stdin), check it with the server (GET /models;
                    a refused key is not stored), keep it in
                    $XDG_CONFIG_HOME/dsh/credentials.json (else
                    ~/.config/dsh/credentials.json, mode 0600), one key per
                    server (--base-url's, default DeepSeek's), and exit; this
                    is the login an editor runs in its terminal
  --logout          remove the stored key of that server and exit
  --pass-env NAME   pass the variable NAME to commands although its name looks
                    like a secret (*_API_KEY, *_TOKEN, *_SECRET, *_PASSWORD,
                    AWS_*, ...); repeat for more (default: none passed)
  --web-allow-private
                    let web_fetch reach loopback, private, link-local and
                    metadata addresses (default: refused)
  --web-search-url URL
                    offer web_search through the SearXNG instance at URL (its
                    JSON API must be on: "json" in search.formats)
  --web-search-deepseek
                    offer web_search through DeepSeek's Search API, with the
                    DeepSeek key (DSH_WEB_SEARCH_KEY, else DEEPSEEK_API_KEY)
  --web-search-deepseek-url URL
                    the Search API's base URL (default https://api.deepseek.com)
  --help            show this help and exit
  --version         print the version and exit

Environment:
  DSH_API_KEY, DEEPSEEK_API_KEY, OPENAI_API_KEY
                    API key for the OpenAI-compatible server, the first set wins,
                    then the key stored by --login (looked for again before each
                    new session); none: DeepSeek's server opens no session (the
                    editor is told to log in), another --base-url server gets
                    requests without an Authorization header
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY
                    the proxy web_fetch and web_search go through
  XDG_CONFIG_HOME   where the models file is: $XDG_CONFIG_HOME/dsh/models.json
                    (default ~/.config/dsh/models.json)

Models file: facts about models that override what dsh knows, by model id;
every field is optional, and a bad entry stops the start with its name:
  { "models": { "deepseek-flash": {
      "contextWindow": 1048576, "maxOutputTokens": 393216,
      "imageInput": true, "thinking": "deepseek",
      "prices": { "currency": "USD", "inputPerMillion": 0.3,
        "cachedInputPerMillion": 0.006, "outputPerMillion": 1.2,
        "offPeak": { "inputPerMillion": 0.15, "cachedInputPerMillion": 0.003,
                     "outputPerMillion": 0.6 },
        "peak": [{ "days": [1,2,3,4,5], "from": "01:00", "to": "04:00" },
                 { "days": [1,2,3,4,5], "from": "06:00", "to": "10:00" }] } } } }
  thinking: "deepseek" (thinking switch, levels off/low/high/max), "effort"
  (reasoning_effort alone), "none"; peak windows are UTC, days 0 = Sunday;
  outside them the offPeak rates apply.

Sandbox: in auto-edit, commands run unasked in a sandbox that lets them write
only inside the session's folders (and a private /tmp), with no network; in
read-only they may write nothing. It needs Linux with bubblewrap ("bwrap";
Debian/Ubuntu: sudo apt-get install bubblewrap) and user namespaces. Without
a working sandbox, or with --sandbox off, those commands are asked (auto-edit)
or refused (read-only), and each session is told why once.

Model choice: --script FILE wins; else the OpenAI-compatible model at
--base-url (default DeepSeek's, which needs a key: see --login).
`

/** Parses the bin's arguments (without `node` and the script path). Never throws. */
export function parseCli(args: readonly string[]): CliCommand {
  let parsed
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        script: { type: 'string' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        mode: { type: 'string' },
        'editor-timeout': { type: 'string' },
        sessions: { type: 'string' },
        'context-window': { type: 'string' },
        'mcp-timeout': { type: 'string' },
        sandbox: { type: 'string' },
        'sandbox-network': { type: 'boolean' },
        'print-zed-settings': { type: 'boolean' },
        login: { type: 'boolean' },
        logout: { type: 'boolean' },
        'pass-env': { type: 'string', multiple: true },
        'web-allow-private': { type: 'boolean' },
        'web-search-url': { type: 'string' },
        'web-search-deepseek': { type: 'boolean' },
        'web-search-deepseek-url': { type: 'string' },
        'image-input': { type: 'boolean' },
        help: { type: 'boolean' },
        version: { type: 'boolean' },
      },
    })
  } catch (error) {
    return { kind: 'error', message: describeParseError(error) }
  }
  const { values } = parsed
  if (values.help) return { kind: 'help' }
  if (values.version) return { kind: 'version' }
  for (const [flag, value] of [
    ['--script', values.script],
    ['--model', values.model],
    ['--base-url', values['base-url']],
    ['--mode', values.mode],
    ['--editor-timeout', values['editor-timeout']],
    ['--sessions', values.sessions],
    ['--context-window', values['context-window']],
    ['--mcp-timeout', values['mcp-timeout']],
  ] as const) {
    if (value !== undefined && value.trim() === '') {
      return { kind: 'error', message: `${flag} needs a non-empty value` }
    }
  }
  for (const [flag, value] of [
    ['--base-url', values['base-url']],
    ['--web-search-url', values['web-search-url']],
    ['--web-search-deepseek-url', values['web-search-deepseek-url']],
  ] as const) {
    if (value !== undefined && !isHttpUrl(value)) {
      return { kind: 'error', message: `${flag} must be an http(s) URL, got "${value}"` }
    }
  }
  const baseUrl = values['base-url']
  const searchUrl = values['web-search-url']
  const deepseekUrl = values['web-search-deepseek-url']
  const deepseek = values['web-search-deepseek'] === true || deepseekUrl !== undefined
  if (searchUrl !== undefined && deepseek) {
    return {
      kind: 'error',
      message: 'give one web search provider: --web-search-url or --web-search-deepseek, not both',
    }
  }
  const mode = values.mode
  if (mode !== undefined && !isPermissionModeId(mode)) {
    const ids = PERMISSION_MODES.map((known) => known.id).join(', ')
    return { kind: 'error', message: `--mode must be one of ${ids}, got "${mode}"` }
  }
  const sandbox = values.sandbox
  if (sandbox !== undefined && sandbox !== 'on' && sandbox !== 'off') {
    return { kind: 'error', message: `--sandbox must be on or off, got "${sandbox}"` }
  }
  const passEnv = values['pass-env']
  const badName = passEnv?.find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
  if (badName !== undefined) {
    return {
      kind: 'error',
      message: `--pass-env takes a variable name (letters, digits, _), got "${badName}"`,
    }
  }
  const timeout = values['editor-timeout']
  const seconds = timeout === undefined ? undefined : Number(timeout)
  if (seconds !== undefined && !(Number.isFinite(seconds) && seconds > 0 && seconds <= 3600)) {
    return {
      kind: 'error',
      message: `--editor-timeout takes seconds, more than 0 and at most 3600, got "${timeout}"`,
    }
  }
  const window = values['context-window']
  const tokens = window === undefined ? undefined : Number(window)
  if (
    tokens !== undefined &&
    !(Number.isInteger(tokens) && tokens >= 1024 && tokens <= 10_000_000)
  ) {
    return {
      kind: 'error',
      message: `--context-window takes a whole number of tokens, at least 1024, got "${window}"`,
    }
  }
  const mcpTimeout = values['mcp-timeout']
  const mcpSeconds = mcpTimeout === undefined ? undefined : Number(mcpTimeout)
  if (
    mcpSeconds !== undefined &&
    !(Number.isFinite(mcpSeconds) && mcpSeconds > 0 && mcpSeconds <= 3600)
  ) {
    return {
      kind: 'error',
      message: `--mcp-timeout takes seconds, more than 0 and at most 3600, got "${mcpTimeout}"`,
    }
  }
  if (values.login === true && values.logout === true) {
    return { kind: 'error', message: 'give --login or --logout, not both' }
  }
  if (values.login === true || values.logout === true) {
    return { kind: values.login === true ? 'login' : 'logout', ...(baseUrl && { baseUrl }) }
  }
  if (values['print-zed-settings'] === true) {
    return { kind: 'zed-settings', flags: args.filter((arg) => arg !== '--print-zed-settings') }
  }
  return {
    kind: 'serve',
    ...(tokens !== undefined && { contextWindow: tokens }),
    ...(mcpSeconds !== undefined && { mcpTimeoutMs: Math.max(1, Math.round(mcpSeconds * 1000)) }),
    ...(mode !== undefined && { mode }),
    ...(values.sessions !== undefined && { sessions: values.sessions }),
    ...(seconds !== undefined && { editorTimeoutMs: Math.max(1, Math.round(seconds * 1000)) }),
    ...(values.script !== undefined && { script: values.script }),
    ...(values.model !== undefined && { model: values.model }),
    ...(baseUrl !== undefined && { baseUrl }),
    ...(sandbox !== undefined && { sandbox }),
    ...(values['sandbox-network'] === true && { sandboxNetwork: true }),
    ...(passEnv !== undefined && { passEnv: [...new Set(passEnv)] }),
    ...(values['web-allow-private'] === true && { webAllowPrivate: true }),
    ...(searchUrl !== undefined && { webSearchUrl: searchUrl }),
    ...(deepseek && { webSearchDeepseek: true }),
    ...(deepseekUrl !== undefined && { webSearchDeepseekUrl: deepseekUrl }),
    ...(values['image-input'] === true && { imageInput: true }),
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

// node:util parseArgs reports problems with codes; turn the common ones into short sentences.
function describeParseError(error: unknown): string {
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /'([^']+)'/.exec(message)?.[1]
    return flag ? `unknown option ${flag}` : message
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /--[\w-]+/.exec(message)?.[0]
    if (!flag) return message
    return message.includes('does not take an argument')
      ? `${flag} takes no value`
      : `${flag} needs a value`
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const arg = /'([^']+)'/.exec(message)?.[1]
    return arg ? `unexpected argument "${arg}"` : message
  }
  return message
}
