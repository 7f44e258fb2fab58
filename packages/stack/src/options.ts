// The stack's options: one tree, each plugin's config under its own key. A key that is present
// loads its plugin with that config; an absent key leaves the plugin out (the tool registry
// and the system prompt are always loaded). Types only.
import type { AcpConfig } from '@deepseek-ai/dsh-acp'
import type { AgentsConfig } from '@deepseek-ai/dsh-agent'
import type { LspDiagnosticsConfig } from '@deepseek-ai/dsh-diagnostics-lsp'
import type { AcpFileSystemConfig } from '@deepseek-ai/dsh-fs-acp'
import type { LocalFileSystemConfig } from '@deepseek-ai/dsh-fs-local'
import type { KnowledgeConfig } from '@deepseek-ai/dsh-knowledge'
import type { LlmScript } from '@deepseek-ai/dsh-llm'
import type { OpenAiLlmConfig } from '@deepseek-ai/dsh-llm-openai'
import type { McpConfig } from '@deepseek-ai/dsh-mcp'
import type { PermissionConfig } from '@deepseek-ai/dsh-permission'
import type { LocalShellConfig } from '@deepseek-ai/dsh-shell-local'
import type { SandboxShellConfig } from '@deepseek-ai/dsh-shell-sandbox'
import type { ToolFsConfig } from '@deepseek-ai/dsh-tool-fs'
import type { ToolSearchConfig } from '@deepseek-ai/dsh-tool-search'
import type { ToolShellConfig } from '@deepseek-ai/dsh-tool-shell'
import type { ToolWebConfig } from '@deepseek-ai/dsh-tool-web'
import type { UndoConfig } from '@deepseek-ai/dsh-undo'
import type { WebConfig } from '@deepseek-ai/dsh-web'
import type { WebSearchConfig } from '@deepseek-ai/dsh-web/search'

/** Which model answers prompts: one of the `llm` key's three. */
export type DshModelOptions =
  | ({ kind: 'openai' } & OpenAiLlmConfig)
  | { kind: 'scripted'; script: LlmScript; delayMs?: number; imageInput?: boolean }
  /** NoticeLlm: answers every prompt with how to configure a model. */
  | { kind: 'unconfigured' }

export interface DshStackOptions {
  /** `LocalFileSystem` (ctx.fs on the disk): `cwd`, `maxEditBytes`. Needed by every file key below. */
  fsLocal?: LocalFileSystemConfig
  /**
   * `AcpFileSystem` over `fsLocal`: each session's files through its editor, when its client
   * offers the fs methods (`timeoutMs`, `maxEditorBytes`); the bridge (`acp`) says which client.
   */
  fsAcp?: Omit<AcpFileSystemConfig, 'clientOf' | 'local'>
  /** `FsPolicy`: read before write/edit, refuse stale writes. */
  fsPolicy?: Record<string, never>
  /** `ToolFs`: the read, write and edit tools (`smallFileBytes`, `indexedFiles`). */
  toolFs?: ToolFsConfig
  /**
   * `LspDiagnostics` (ctx.diagnostics: the project's language servers; `waitMs`, `startMs`,
   * `warnings`, `sandbox`) and the diagnostics tool; write and edit then add the errors a change made.
   */
  diagnostics?: LspDiagnosticsConfig
  /** `ToolSearch`: the glob and grep tools (`timeoutMs`, `rgPath`). */
  toolSearch?: ToolSearchConfig
  /** The permission layer (`defaultMode`, `unanswered`); absent: every call runs unasked. */
  permission?: PermissionConfig
  /** `ToolPlan`: the todo tool. */
  toolPlan?: Record<string, never>
  /** `ToolImage`: read_image, offered while a session's model takes images; needs a file key. */
  toolImage?: Record<string, never>
  /** `LocalShell` (ctx.shell, unconfined): `secrets`, `killGraceMs`. */
  shellLocal?: LocalShellConfig
  /** `SandboxShell` (ctx.shell under bubblewrap), in place of `shellLocal`: `bwrap`, `visible`, … */
  shellSandbox?: SandboxShellConfig
  /**
   * `ToolShell`: bash (`outputDir`, `sandboxNetwork`); needs a shell. Loads the jobs seam too:
   * job_output and job_kill read and end its background commands.
   */
  toolShell?: ToolShellConfig
  /** The model. */
  llm?: DshModelOptions
  /** The agent host (`maxSteps`, `compaction`, `store`). */
  agents?: AgentsConfig
  /**
   * `ToolTask`: the task tool (delegates as child sessions); needs `agents`, after
   * `permission`. Loads the jobs seam too: job_output and job_kill read and end its background tasks.
   */
  toolTask?: Record<string, never>
  /** The ACP bridge (`agentInfo`, `modes`, `defaultMode`, `mcpCapabilities`). */
  acp?: AcpConfig
  /** Each session's MCP servers (`callTimeoutMs`, …), opened when a bridge session opens. */
  mcp?: McpConfig
  /**
   * The ask tools per bridge session (tool-ask): `exit_plan_mode`, and `ask_user` where the
   * client shows forms (ACP elicitation); needs `acp`.
   */
  toolAsk?: Record<string, never>
  /**
   * The project's knowledge (`Knowledge`: instruction files, skills, the person's commands;
   * `home`, `configHome`), the `skill` tool, and with `acp` its commands per session.
   */
  knowledge?: KnowledgeConfig
  /** `WebService` (ctx.web): fetching through the private-address guard (`allowPrivate`, …). */
  web?: WebConfig
  /** The search providers behind ctx.web (`searxng`, `deepseek`); none: no web_search. */
  webSearch?: WebSearchConfig
  /** `ToolWeb`: web_fetch, and web_search where a provider is configured; needs `web`. */
  toolWeb?: ToolWebConfig
  /**
   * `undo`: snapshots of each session's roots around every turn that may change files, and
   * `/undo`, `/redo` per session (`dir`, `keepTurns`, `maxFileBytes`, `git`); needs `acp`.
   */
  undo?: UndoConfig
}
