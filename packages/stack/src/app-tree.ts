// The app's options tree: every plugin dsh-acp runs, with the app's choices (the editor's files
// over the disk, the permission modes offered by the bridge, the todo list kept whole through a
// compaction, commands sandboxed unless turned off, MCP over stdio and streamable HTTP). Each
// choice is written here once: the app (acp-agent) fills `DshApp` from its flags and adds what
// only a process knows (its name, its folders); the test harness (acp-testing) takes this tree
// and keeps the keys a test asks for. Pure: it builds the tree the stack loads.
import type { AcpConfig } from '@deepseek-ai/dsh-acp'
import type { SessionStore } from '@deepseek-ai/dsh-agent'
import { PERMISSION_MODES } from '@deepseek-ai/dsh-permission'
import type { PermissionModeId } from '@deepseek-ai/dsh-permission'
import type { DshModelOptions, DshStackOptions } from './options'

/** What the app is started with (the bin fills it from its flags). */
export interface DshApp {
  /** Base for relative paths outside a session (sessions use their own cwd); default process.cwd(). */
  cwd?: string
  llm: DshModelOptions
  /** The permission mode new sessions start in (default `ask`). */
  mode?: PermissionModeId
  /** fs-acp's config: `timeoutMs`, the longest wait for one editor request. */
  fsAcp?: NonNullable<DshStackOptions['fsAcp']>
  /** Where sessions are stored, so an editor can list, load and resume them; none: memory only. */
  store?: SessionStore
  /** mcp's config: `callTimeoutMs`, the longest wait for one MCP tool call (default 60 s). */
  mcp?: NonNullable<DshStackOptions['mcp']>
  /**
   * The command sandbox (shell-sandbox, default on): `enabled: false` runs commands with the
   * local shell, unconfined; `network` lets sandboxed commands reach the network; `bwrap`
   * names the bubblewrap program; `hidden` folders no sandboxed command may read.
   */
  sandbox?: { enabled?: boolean; network?: boolean; bwrap?: string; hidden?: string[] }
  /** Variables passed to commands although their names look like secrets (`GITHUB_TOKEN`). */
  passEnv?: readonly string[]
  /** The web tools (web_fetch always, web_search with a provider); see DshWebOptions. */
  web?: DshWebOptions
  /** Where undo's snapshots and logs live (default `$XDG_STATE_HOME/dsh/snapshots`). */
  snapshots?: string
  /**
   * Where the whole output of a cut command result is kept: a folder no sandbox may write,
   * shown read-only to sandboxed commands.
   */
  shellOutputDir: string
  /** Who the bridge says it is in `initialize`. */
  agentInfo?: NonNullable<AcpConfig>['agentInfo']
}

/** The web tools' options: `--web-allow-private`, `--web-search-url`, `--web-search-deepseek`. */
export interface DshWebOptions {
  /** Fetch from loopback, private, link-local and metadata addresses too. */
  allowPrivate?: boolean
  /** A SearXNG instance for web_search. */
  searxngUrl?: string
  /** DeepSeek's Search API for web_search: the key, and a base URL other than DeepSeek's. */
  deepseek?: { apiKey: string; baseUrl?: string }
}

export function appTree(app: DshApp): DshStackOptions {
  const mode = app.mode ?? 'ask'
  const sandbox = app.sandbox ?? {}
  return {
    fsLocal: { cwd: app.cwd ?? process.cwd() },
    fsAcp: app.fsAcp ?? {},
    fsPolicy: {},
    toolFs: {},
    // The project's language servers, in the read-only sandbox unless commands' is turned off.
    diagnostics: {
      ...(sandbox.enabled === false && { sandbox: 'off' as const }),
      ...(sandbox.bwrap !== undefined && { bwrap: sandbox.bwrap }),
    },
    toolSearch: {},
    permission: { defaultMode: mode },
    toolPlan: {},
    // read_image: offered only while a session's model takes images.
    toolImage: {},
    ...shellOf(app),
    toolShell: { outputDir: app.shellOutputDir, sandboxNetwork: sandbox.network === true },
    llm: app.llm,
    // The plan's latest list stays whole through a compaction (its result is never elided).
    agents: {
      compaction: { keepTools: ['todo'] },
      ...(app.store !== undefined && { store: app.store }),
    },
    toolTask: {},
    acp: {
      ...(app.agentInfo !== undefined && { agentInfo: app.agentInfo }),
      modes: [...PERMISSION_MODES],
      defaultMode: mode,
      mcpCapabilities: { http: true, sse: false },
    },
    mcp: app.mcp ?? {},
    // ask_user (where the client shows forms) and exit_plan_mode, per session.
    toolAsk: {},
    // The project's knowledge: instruction files, skills and the skill tool, the person's commands.
    knowledge: {},
    // The web tools: ctx.web (fetching through the private-address guard), its search
    // providers, and web_fetch / web_search (the latter only with a provider).
    web: { allowPrivate: app.web?.allowPrivate === true },
    webSearch: {
      ...(app.web?.searxngUrl !== undefined && { searxng: { url: app.web.searxngUrl } }),
      ...(app.web?.deepseek !== undefined && { deepseek: app.web.deepseek }),
    },
    toolWeb: {},
    // Snapshots around each turn that may change files; /undo and /redo per session.
    undo: app.snapshots !== undefined ? { dir: app.snapshots } : {},
  }
}

/** The sandboxing shell, or the local one when it is turned off; no command sees the app's keys. */
function shellOf(app: DshApp): DshStackOptions {
  const modelKey = app.llm.kind === 'openai' && app.llm.apiKey !== undefined ? [app.llm.apiKey] : []
  const searchKey = app.web?.deepseek?.apiKey
  const secrets = searchKey === undefined ? modelKey : [...modelKey, searchKey]
  const passEnv = [...(app.passEnv ?? [])]
  const sandbox = app.sandbox ?? {}
  if (sandbox.enabled === false) return { shellLocal: { secrets, passEnv } }
  return {
    shellSandbox: {
      secrets,
      passEnv,
      visible: [app.shellOutputDir],
      ...(sandbox.hidden !== undefined && { hidden: sandbox.hidden }),
      ...(sandbox.bwrap !== undefined && { bwrap: sandbox.bwrap }),
    },
  }
}
