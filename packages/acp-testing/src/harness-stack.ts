// The harness's options and the stack's options tree it loads (`harnessStack`): the app's tree
// (stack's appTree, where each choice is written once) with only the keys a test asked for, a
// scripted model or the OpenAI-compatible one, and what a test needs in place of the
// process's (its workspace, its resolver, no proxy from the environment, no MCP).
import { join } from 'node:path'
import type { Context } from 'cordis'
import type { SessionStore } from '@deepseek-ai/dsh-agent'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import type { PermissionModeId } from '@deepseek-ai/dsh-permission'
import { appTree } from '@deepseek-ai/dsh-stack'
import type { DshApp, DshModelOptions, DshStackOptions } from '@deepseek-ai/dsh-stack'
import type { WebResolver } from '@deepseek-ai/dsh-web'
import type { PermissionAnswerer } from './client'
import type { HarnessEditorOptions } from './editor'

export interface AcpHarnessOptions {
  /** What the scripted model says, one turn per model request (all sessions share it). */
  script?: LlmScript
  /**
   * The OpenAI-compatible model (llm-openai) with this config in place of the scripted one,
   * as the app loads it: point `baseUrl` at a model server on 127.0.0.1.
   */
  openai?: OpenAiModelOptions
  /**
   * Load the real fs stack on the workspace, as the app does: the disk under the editor
   * provider (fs-acp, routing each session to its client's editor when it offers the fs
   * methods), FsPolicy, ToolFs and the permission layer.
   */
  withFs?: boolean
  /** The mode new sessions start in (default `ask`: writes and edits are asked about). */
  mode?: PermissionModeId
  /** How the client answers `session/request_permission` (default: the `allow_once` option). */
  answer?: PermissionAnswerer
  /**
   * The client is an editor offering `fs/read_text_file` / `fs/write_text_file` (as far as
   * `read`/`write` say), which the agent then reads and writes through; `timeoutMs` is the
   * agent's wait for one editor request.
   */
  editor?: HarnessEditorOptions & { timeoutMs?: number }
  /** Milliseconds the scripted model waits between stream events (slows turns down). */
  delayMs?: number
  /** The agent host's step limit per turn. */
  maxSteps?: number
  /** Where the agent host stores sessions (load, list, resume are offered with one). */
  store?: SessionStore
  /** Mount the task tool (tool-task), as the app does. */
  withTask?: boolean
  /** Mount the todo tool (tool-plan), as the app does; default false: only the tools asked for. */
  withPlan?: boolean
  /** The ask tools as the app loads them: `exit_plan_mode`, and `ask_user` with forms. */
  withAsk?: boolean
  /**
   * Images: the scripted model takes them (`imageInput`), and with `withFs` the read_image
   * tool (tool-image) is mounted, as the app does.
   */
  withImages?: boolean
  /**
   * Load the shell tools as the app does: the local shell (ctx.shell: process groups; its
   * SIGTERM-to-SIGKILL grace, `killGraceMs`) and bash, job_output, job_kill.
   */
  withShell?: boolean | { killGraceMs?: number }
  /**
   * With `withShell`, the sandboxing shell as the app loads it (shell-sandbox) instead of the
   * local one: `bwrap` names the program (a missing one forces the fallback), `network` is
   * the app's `--sandbox-network`.
   */
  sandbox?: boolean | { bwrap?: string; network?: boolean }
  /** The client advertises `session.notices`: notices come as `notice` updates. */
  notices?: boolean
  /**
   * The client advertises ACP's unstable subagent sessions (`clientCapabilities.subagents`):
   * the frames are then checked against the unstable schema, and the `subagent_update`s it
   * receives are kept in `subagentUpdates` (the SDK's stable client, the harness's, cannot take
   * them).
   */
  subagents?: boolean
  /** The client advertises Zed's `_meta.terminal_output`: commands stream as terminals. */
  terminalOutput?: boolean
  /**
   * Load the web tools as the app does (web, web-search, tool-web): `allowPrivate` is the app's
   * `--web-allow-private`, `searxngUrl` its `--web-search-url`; `resolver` replaces the
   * system's; no proxy from the environment.
   */
  web?: { allowPrivate?: boolean; resolver?: WebResolver; searxngUrl?: string }
  /**
   * Load the project's knowledge as the app does (knowledge, tool-skill, knowledge-sessions): the
   * instruction files, skills and the person's commands of the workspace; `home` and
   * `configHome` name the person's places (default: HOME and XDG_CONFIG_HOME).
   */
  withKnowledge?: boolean | { home?: string; configHome?: string }
  /**
   * With `withFs`, the project's language servers as the app loads them (diagnostics-lsp with
   * this config, and the diagnostics tool): write and edit add the errors a change made.
   */
  diagnostics?: NonNullable<DshStackOptions['diagnostics']>
  /** Runs after the registry and prompt are loaded: register extra tools here (`ctx.tools`). */
  setup?: (ctx: Context) => void | Promise<void>
}

/** The OpenAI-compatible model's config, as the stack's `llm` key takes it. */
export type OpenAiModelOptions = Omit<Extract<DshModelOptions, { kind: 'openai' }>, 'kind'>

/** The stack's options tree for a harness: the app's tree, with only the keys the test asked for. */
export function harnessStack(options: AcpHarnessOptions, workspace: string): DshStackOptions {
  const app = appTree({
    cwd: workspace,
    llm: modelOf(options),
    ...(options.mode !== undefined && { mode: options.mode }),
    ...(options.editor?.timeoutMs !== undefined && {
      fsAcp: { timeoutMs: options.editor.timeoutMs },
    }),
    ...(options.store !== undefined && { store: options.store }),
    sandbox: sandboxOf(options),
    ...(options.web !== undefined && { web: options.web }),
    shellOutputDir: join(workspace, '.dsh-output'),
  })
  // The harness loads no MCP servers, so its bridge offers none.
  const { mcpCapabilities: _none, ...acp } = app.acp ?? {}
  return {
    // As the app does: the agent reads and writes through each session's editor when its
    // client offers the fs methods, else the disk.
    ...(options.withFs && pick(app, FILE_KEYS)),
    ...(options.withFs && options.diagnostics && { diagnostics: options.diagnostics }),
    ...(options.withPlan && pick(app, ['toolPlan'])),
    ...(options.withAsk && pick(app, ['toolAsk'])),
    // Images, as the app mounts them (read_image needs ctx.fs).
    ...(options.withImages && options.withFs && pick(app, ['toolImage'])),
    ...(options.withShell && shellOf(app, options)),
    ...(options.web && webOf(app, options.web)),
    ...(options.withKnowledge && {
      knowledge: options.withKnowledge === true ? {} : options.withKnowledge,
    }),
    llm: app.llm,
    ...(options.withTask && pick(app, ['toolTask'])),
    agents: { maxSteps: options.maxSteps ?? 50, ...app.agents },
    acp,
  }
}

type StackKey = keyof DshStackOptions

/** The keys `withFs` loads: the disk under the editor, the policy, the file tools, permission. */
const FILE_KEYS: StackKey[] = ['fsLocal', 'fsAcp', 'fsPolicy', 'toolFs', 'toolSearch', 'permission']

function pick(tree: DshStackOptions, keys: StackKey[]): DshStackOptions {
  return Object.fromEntries(keys.map((key) => [key, tree[key]])) as DshStackOptions
}

function modelOf(options: AcpHarnessOptions): DshModelOptions {
  if (options.openai) return { kind: 'openai', ...options.openai }
  return {
    kind: 'scripted',
    script: options.script ?? { turns: [] },
    delayMs: options.delayMs ?? 0,
    imageInput: options.withImages === true,
  }
}

/** The app's sandbox switch: on only when the test asks for the sandboxing shell. */
function sandboxOf(options: AcpHarnessOptions): NonNullable<DshApp['sandbox']> {
  const sandbox = options.sandbox === true ? {} : options.sandbox
  if (sandbox === undefined || sandbox === false) return { enabled: false }
  return {
    ...(sandbox.network === true && { network: true }),
    ...(sandbox.bwrap !== undefined && { bwrap: sandbox.bwrap }),
  }
}

/** The app's shell (the local one, or the sandboxing one) with the test's kill grace. */
function shellOf(app: DshStackOptions, options: AcpHarnessOptions): DshStackOptions {
  const grace = typeof options.withShell === 'object' ? options.withShell : {}
  const shell: DshStackOptions = app.shellSandbox
    ? { shellSandbox: { ...grace, ...app.shellSandbox } }
    : { shellLocal: { ...grace, ...app.shellLocal } }
  return { ...shell, toolShell: app.toolShell }
}

/** The app's web tools, with the test's resolver and no proxy from the environment. */
function webOf(app: DshStackOptions, web: NonNullable<AcpHarnessOptions['web']>): DshStackOptions {
  const { searxngUrl: _url, ...config } = web
  return { web: { proxyEnv: {}, ...app.web, ...config }, ...pick(app, ['webSearch', 'toolWeb']) }
}
