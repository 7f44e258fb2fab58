// The text `dsh-acp --help` prints: every flag, the environment it reads, the models file,
// the sandbox and how the model is chosen. The README is the longer reference.
import { PERMISSION_MODES } from '@deepseek-ai/dsh-permission'

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
