// One language per root: its server (started lazily, restarted once after a crash, then off
// for the session with a notice), the problems last seen per file (the baseline of the next
// change), the importers kept open per changed file, and the sessions using it (it is stopped
// when the last one's agent is released). `check` is one change's round: baseline, sync, verdict.
import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import type { Diagnostic, DiagnosticsChange, DiagnosticsReport } from '@deepseek-ai/dsh-diagnostics'
import { introducedBy, textBefore } from './compare'
import { findImporters } from './importers'
import { LspServer } from './server'
import type { LspServerOptions } from './server'
import type { ServerSpec } from './servers'

export interface SlotCheck {
  change: DiagnosticsChange
  languageId: string
  /** Date.now() time by which the server must answer. */
  deadline: number
  warnings: boolean
  scanFiles: number
}

export class ServerSlot {
  server: LspServer | undefined
  crashes = 0
  /** Date.now() when the current server was started. */
  startedAt = 0
  off = false
  /** Said once, in the next report, when the server was turned off. */
  notice: string | undefined
  private readonly last = new Map<string, Diagnostic[]>()
  private readonly importers = new Map<string, string[]>()
  private readonly users = new Set<AbortSignal>()

  constructor(
    readonly spec: ServerSpec,
    readonly root: string,
  ) {}

  /** Starts the server (the caller checked it may); a crash is counted when it exits unasked. */
  start(options: LspServerOptions): LspServer {
    const server = new LspServer(options)
    this.server = server
    this.startedAt = Date.now()
    // An exit nobody asked for: restart once (the next change starts it), then off.
    void server.process.exited.then(() => {
      if (this.server !== server) return
      this.server = undefined
      this.crashes += 1
      if (this.crashes < 2) return
      this.off = true
      const said = server.process.lastError()
      this.notice = `The ${this.spec.name} language server stopped twice${said ? ` (${said})` : ''}; diagnostics for ${this.spec.name} files are off for this session.`
    })
    return server
  }

  /** Ties the slot to an agent's lifetime; `onIdle` runs when the last one using it is released. */
  use(lifetime: AbortSignal | undefined, onIdle: () => void): void {
    if (lifetime === undefined || lifetime.aborted || this.users.has(lifetime)) return
    this.users.add(lifetime)
    lifetime.addEventListener(
      'abort',
      () => {
        this.users.delete(lifetime)
        if (this.users.size === 0) onIdle()
      },
      { once: true },
    )
  }

  /** Ends the server without counting a crash; baselines go with it. */
  async stop(): Promise<void> {
    const server = this.server
    this.server = undefined
    this.last.clear()
    this.importers.clear()
    await server?.stop()
  }

  takeNotice(): string | undefined {
    const notice = this.notice
    this.notice = undefined
    return notice
  }

  async check(server: LspServer, request: SlotCheck): Promise<DiagnosticsReport> {
    const { change, languageId, deadline } = request
    const { path } = change
    const name = this.spec.name
    const after = await readFile(path, 'utf8')
    const before = server.isOpen(path) ? undefined : textBefore(change, after)
    const others = await this.importersOf(path, request.scanFiles)
    // The baseline: what the server said last, or (first time) what it says of the old text.
    const fresh = others.filter((other) => !server.isOpen(other))
    for (const other of fresh) {
      const id = this.spec.languages[extname(other)] ?? languageId
      server.sync(other, id, await readFile(other, 'utf8'))
    }
    if (typeof before === 'string') server.sync(path, languageId, before)
    const baselinePaths = [...fresh, ...(typeof before === 'string' ? [path] : [])]
    await this.remember(server, baselinePaths, deadline)
    if (before === null) this.last.set(path, [])
    const marks = [path, ...others].map((file) => server.mark(file))
    server.sync(path, languageId, after)
    const answers = await Promise.all(
      [path, ...others].map((file, index) => server.diagnostics(file, marks[index]!, deadline)),
    )
    if (answers[0] === undefined) return { status: 'not-ready', introduced: [], server: name }
    const introduced: Diagnostic[] = []
    ;[path, ...others].forEach((file, index) => {
      const now = answers[index]
      if (now === undefined) return
      const was = this.last.get(file) ?? []
      this.last.set(file, now)
      introduced.push(...introducedBy(was, now).filter((item) => shown(item, request.warnings)))
    })
    return { status: 'ready', introduced, server: name }
  }

  /** Current problems of `path` (opened when not yet), or undefined when not answered in time. */
  async current(
    server: LspServer,
    path: string,
    languageId: string,
    deadline: number,
    warnings: boolean,
  ) {
    if (!server.isOpen(path)) server.sync(path, languageId, await readFile(path, 'utf8'))
    const now = await server.diagnostics(path, 0, deadline)
    if (now !== undefined) this.last.set(path, now)
    return now?.filter((item) => shown(item, warnings))
  }

  /** Every problem last seen, for a project-wide answer. */
  seen(warnings: boolean): Diagnostic[] {
    return [...this.last.values()].flat().filter((item) => shown(item, warnings))
  }

  private async remember(server: LspServer, paths: readonly string[], deadline: number) {
    const answers = await Promise.all(paths.map((file) => server.diagnostics(file, 0, deadline)))
    paths.forEach((file, index) => {
      const answer = answers[index]
      if (answer !== undefined) this.last.set(file, answer)
    })
  }

  private async importersOf(path: string, limit: number): Promise<string[]> {
    if (!this.spec.tsserver) return []
    let found = this.importers.get(path)
    if (found === undefined) {
      found = await findImporters(this.root, path, Object.keys(this.spec.languages), limit)
      this.importers.set(path, found)
    }
    return found
  }
}

function shown(item: Diagnostic, warnings: boolean): boolean {
  return item.severity === 'error' || (warnings && item.severity === 'warning')
}
