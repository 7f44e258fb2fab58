// The harness's options and the stack's options tree it loads (`harnessStack`): the app's
// stack, minus what a test did not ask for, with a scripted model or the OpenAI-compatible one.
import { join } from 'node:path'
import type { Context } from 'cordis'
import type { SessionStore } from '@deepseek-ai/dsh-agent'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import { PERMISSION_MODES } from '@deepseek-ai/dsh-permission'
import type { PermissionModeId } from '@deepseek-ai/dsh-permission'
import type { DshModelOptions, DshStackOptions } from '@deepseek-ai/dsh-stack'
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

/** The stack's options tree for a harness: the app's stack, minus what the test did not ask for. */
export function harnessStack(options: AcpHarnessOptions, workspace: string): DshStackOptions {
  const mode = options.mode ?? 'ask'
  const files: DshStackOptions = options.withFs
    ? {
        fsLocal: { cwd: workspace },
        // As the app does: the agent reads and writes through each session's editor when its
        // client offers the fs methods, else the disk.
        fsAcp:
          options.editor?.timeoutMs === undefined ? {} : { timeoutMs: options.editor.timeoutMs },
        fsPolicy: {},
        toolFs: {},
        ...(options.diagnostics && { diagnostics: options.diagnostics }),
        toolSearch: {},
        permission: { defaultMode: mode },
      }
    : {}
  return {
    ...files,
    ...(options.withPlan && { toolPlan: {} }),
    ...(options.withAsk && { toolAsk: {} }),
    // Images, as the app mounts them (read_image needs ctx.fs).
    ...(options.withImages && options.withFs && { toolImage: {} }),
    ...(options.withShell && shellOf(options, workspace)),
    ...(options.web && webOf(options.web)),
    ...(options.withKnowledge && {
      knowledge: options.withKnowledge === true ? {} : options.withKnowledge,
    }),
    llm: options.openai
      ? { kind: 'openai', ...options.openai }
      : {
          kind: 'scripted',
          script: options.script ?? { turns: [] },
          delayMs: options.delayMs ?? 0,
          imageInput: options.withImages === true,
        },
    ...(options.withTask && { toolTask: {} }),
    agents: {
      maxSteps: options.maxSteps ?? 50,
      // As the app: the plan's latest list stays whole through a compaction.
      compaction: { keepTools: ['todo'] },
      ...(options.store && { store: options.store }),
    },
    acp: { modes: [...PERMISSION_MODES], defaultMode: mode },
  }
}

/** The local shell, or the sandboxing one as the app loads it, and the shell tools. */
function shellOf(options: AcpHarnessOptions, workspace: string): DshStackOptions {
  const grace = typeof options.withShell === 'object' ? options.withShell : {}
  const sandbox = options.sandbox === true ? {} : options.sandbox
  const outputDir = join(workspace, '.dsh-output')
  if (sandbox === undefined || sandbox === false) {
    return { shellLocal: grace, toolShell: { outputDir, sandboxNetwork: false } }
  }
  const bwrap = sandbox.bwrap === undefined ? {} : { bwrap: sandbox.bwrap }
  return {
    shellSandbox: { ...grace, ...bwrap, visible: [outputDir] },
    toolShell: { outputDir, sandboxNetwork: sandbox.network === true },
  }
}

/** The web tools as the app loads them (ctx.web, a SearXNG provider when given, the tools). */
function webOf(web: NonNullable<AcpHarnessOptions['web']>): DshStackOptions {
  const { searxngUrl, ...config } = web
  return {
    web: { proxyEnv: {}, ...config },
    webSearch: searxngUrl === undefined ? {} : { searxng: { url: searxngUrl } },
    toolWeb: {},
  }
}
