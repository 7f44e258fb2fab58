// LspDiagnostics: ctx.diagnostics from the project's own language servers (./servers), one per
// language per root (./slot), started at the first change of such a file and ended with the
// provider, or when the last agent using it is released. Before a server first starts outside a
// sandbox, a session in the `ask` mode asks its person once per workspace (./trust); a change
// waits `waitMs` at most for that answer, and the server starts whenever they allow it. Every
// answer is bounded: `startMs` for a server's first start (initialize, the first checks),
// `waitMs` after; past it the report says the diagnostics were not ready.
import type { Context } from 'cordis'
import { Diagnostics } from '@deepseek-ai/dsh-diagnostics'
import type {
  Diagnostic,
  DiagnosticsChange,
  DiagnosticsReport,
  DiagnosticsSnapshot,
} from '@deepseek-ai/dsh-diagnostics'
import { configOf } from '@deepseek-ai/dsh-tools'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { Config, applyServersFiles, serversFiles } from './config'
import type { LspDiagnosticsConfig, LspDiagnosticsOptions } from './config'
import { ServerLauncher } from './launch'
import { BUILT_IN_SERVERS, serverFor } from './servers'
import type { ServerSlot } from './slot'
import { WorkspaceTrust } from './trust'

/**
 * The language servers' side (./slot: the server, its process, vscode-jsonrpc), loaded at the
 * first server a change needs, not with the plugin.
 */
let slotModule: Promise<typeof import('./slot')> | undefined
function slotClass(): Promise<typeof ServerSlot> {
  slotModule ??= import('./slot')
  return slotModule.then(({ ServerSlot }) => ServerSlot)
}

export default class LspDiagnostics extends Diagnostics {
  static Config = Config

  readonly waitMs: number
  private readonly config: LspDiagnosticsOptions
  private readonly slots = new Map<string, ServerSlot>()
  private readonly launcher: ServerLauncher
  private readonly trust: WorkspaceTrust
  private disposed = false
  /** Servers-file errors already told (each once per provider). */
  private readonly told = new Set<string>()

  constructor(ctx: Context, config: LspDiagnosticsConfig) {
    super(ctx)
    // Cordis validated `config` against Config when it loaded the service: defaults are in.
    this.config = configOf(Config, config)
    this.waitMs = this.config.waitMs
    this.launcher = new ServerLauncher(this.config.bwrap, this.config.sandbox)
    this.trust = new WorkspaceTrust(this.launcher)
    ctx.effect(() => () => this.stopAll(), 'language servers')
  }

  async afterChange(change: DiagnosticsChange, exec?: ToolExecution): Promise<DiagnosticsReport> {
    const opened = await this.serverOf(change.path, exec)
    if ('report' in opened) return tell(exec, opened.report)
    const { slot, server, deadline, languageId, waitedMs } = opened
    try {
      await untilReady(server.ready, deadline)
      const report = await slot.check(server, {
        change,
        languageId,
        deadline,
        warnings: this.config.warnings,
        scanFiles: this.config.scanFiles,
      })
      const timed = report.status === 'not-ready' ? { ...report, waitedMs } : report
      return tell(exec, withNotice(timed, slot.takeNotice()))
    } catch {
      // Not started in time, or it failed: the change stands; the report says so.
      const late: DiagnosticsReport = {
        status: 'not-ready',
        introduced: [],
        server: slot.spec.name,
        waitedMs,
      }
      return tell(exec, withNotice(late, slot.takeNotice()))
    }
  }

  async current(path: string | undefined, exec?: ToolExecution): Promise<DiagnosticsSnapshot> {
    if (path === undefined) {
      const diagnostics: Diagnostic[] = []
      for (const slot of this.slots.values()) diagnostics.push(...slot.seen(this.config.warnings))
      return { status: this.slots.size > 0 ? 'ready' : 'none', diagnostics }
    }
    const opened = await this.serverOf(path, exec)
    if ('report' in opened) {
      const { status, notice, waitingFor } = opened.report
      return {
        status,
        diagnostics: [],
        ...(notice !== undefined && { notice }),
        ...(waitingFor !== undefined && { waitingFor }),
      }
    }
    const { slot, server, deadline, languageId } = opened
    try {
      await untilReady(server.ready, deadline)
      const now = await slot.current(server, path, languageId, deadline, this.config.warnings)
      return now === undefined
        ? { status: 'not-ready', diagnostics: [] }
        : { status: 'ready', diagnostics: now }
    } catch {
      return { status: 'not-ready', diagnostics: [] }
    }
  }

  /** The running server for `path`, started when it may be; or the report of why there is none. */
  private async serverOf(path: string, exec: ToolExecution | undefined) {
    const workspace = exec?.session.header.cwd ?? process.cwd()
    const { specs, errors } = applyServersFiles(
      BUILT_IN_SERVERS,
      serversFiles(workspace, this.config.configHome),
    )
    const fresh = errors.filter((error) => !this.told.has(error))
    for (const error of fresh) this.told.add(error)
    const bad = fresh.length > 0 ? fresh.join('\n') : undefined
    const found = serverFor(specs, path, workspace)
    const none = (notice?: string): { report: DiagnosticsReport } => {
      const said = [bad, notice].filter((line) => line !== undefined).join('\n')
      return { report: { status: 'none', introduced: [], ...(said !== '' && { notice: said }) } }
    }
    if (found === undefined || this.disposed) return none()
    const { spec, root, languageId } = found
    const key = `${spec.name}\0${root}`
    // Loaded before the slot is looked up: the lookup and the set stay one step, so two changes
    // at once share one slot.
    const Slot = await slotClass()
    if (this.disposed) return none()
    const slot = this.slots.get(key) ?? new Slot(spec, root)
    this.slots.set(key, slot)
    if (slot.off) return none(slot.takeNotice())
    slot.use(exec?.agent?.lifetime, () => void slot.stop())
    if (bad !== undefined) slot.notice = [bad, slot.notice].filter(Boolean).join('\n')
    if (slot.server !== undefined) {
      // Within a start's bound (a server the person allowed late), a change waits as long.
      const now = Date.now()
      const deadline = Math.max(now + this.waitMs, slot.startedAt + this.config.startMs)
      return { slot, server: slot.server, deadline, languageId, waitedMs: deadline - now }
    }
    const argv = spec.command(root, path)
    if (!Array.isArray(argv)) return none()
    const begun = Date.now()
    const server = await this.startAllowed(slot, argv, path, exec)
    if (server === LATE) return { report: waitingForAnswer(spec.name) }
    if (server === undefined) return none()
    const waitedMs = this.config.startMs
    return { slot, server, deadline: begun + waitedMs, languageId, waitedMs }
  }

  /**
   * The slot's server, started when it may start: at once, or on the person's answer when it
   * comes within `waitMs`; LATE when it has not (the server starts once they allow it).
   */
  private async startAllowed(
    slot: ServerSlot,
    argv: string[],
    path: string,
    exec: ToolExecution | undefined,
  ) {
    const workspace = exec?.session.header.cwd ?? process.cwd()
    const may = await this.trust.mayStart(slot.spec.name, workspace, exec)
    if (typeof may === 'boolean') return may ? this.startIn(slot, argv, path) : undefined
    const allowed = await beforeDeadline(may.answer, may.since + this.waitMs)
    if (allowed !== LATE) return allowed ? this.startIn(slot, argv, path) : undefined
    const lifetime = exec?.agent?.lifetime
    void may.answer.then(async (yes) => {
      if (yes && !lifetime?.aborted) await this.startIn(slot, argv, path)
    })
    return LATE
  }

  /** The slot's server, started with `argv` unless running; undefined once the provider ended. */
  private async startIn(slot: ServerSlot, argv: string[], path: string) {
    const { spec, root } = slot
    if (this.disposed) return undefined
    const launch = await this.launcher.launch(argv, root, spec.env?.(root, path))
    if (this.disposed) return undefined
    // Raced: another change may have started it while this one waited.
    return (
      slot.server ??
      slot.start({
        name: spec.name,
        argv: launch.argv,
        root,
        cwd: root,
        env: launch.env,
        killGraceMs: this.config.killGraceMs,
        initializationOptions: spec.initializationOptions?.(root, path),
        ...(spec.tsserver && { tsserver: true }),
        ...(launch.sandboxed && { ownPidNamespace: true }),
      })
    )
  }

  private async stopAll(): Promise<void> {
    this.disposed = true
    const slots = [...this.slots.values()]
    this.slots.clear()
    await Promise.all(slots.map((slot) => slot.stop()))
  }
}

const LATE = Symbol('late')

/** What `promise` settles to, or LATE when it has not by `deadline` (a Date.now() time). */
function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), Math.max(0, deadline - Date.now()))
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

async function untilReady(ready: Promise<void>, deadline: number): Promise<void> {
  if ((await beforeDeadline(ready, deadline)) === LATE) throw new Error('not ready')
}

function waitingForAnswer(server: string): DiagnosticsReport {
  return { status: 'not-ready', introduced: [], server, waitingFor: 'answer' }
}

function withNotice(report: DiagnosticsReport, notice: string | undefined): DiagnosticsReport {
  return notice === undefined ? report : { ...report, notice }
}

/** The notice to the session's person too, where its host gives a notice channel. */
function tell(exec: ToolExecution | undefined, report: DiagnosticsReport): DiagnosticsReport {
  if (report.notice !== undefined) exec?.session.scope.channels.notice?.({ title: report.notice })
  return report
}

export { Config } from './config'
export type { LspDiagnosticsConfig } from './config'
export { BUILT_IN_SERVERS, projectTypescript } from './servers'
export type { ServerSpec } from './servers'
