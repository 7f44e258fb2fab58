// One running language server for one root, spoken to over LSP: `initialize`, the documents
// dsh opened (whole-text sync), and each file's diagnostics: pulled where the server offers it
// (tsserver's own requests through typescript-language-server; LSP's `textDocument/diagnostic`),
// else the next `publishDiagnostics` after a change. Every wait has a deadline; a request past
// it is cancelled and answers `undefined`, so no caller is held longer. Cordis-free.
import { pathToFileURL } from 'node:url'
import type { Diagnostic } from '@deepseek-ai/dsh-diagnostics'
import { CancellationTokenSource } from 'vscode-jsonrpc/node'
import type { MessageConnection } from 'vscode-jsonrpc/node'
import type { Diagnostic as LspDiagnostic, InitializeResult } from 'vscode-languageserver-protocol'
import { fromLsp, fromTsserver } from './compare'
import type { TsserverDiagnostic } from './compare'
import { ServerProcess } from './process'
import type { ServerProcessOptions } from './process'

/** After a push, how long more publishes of the same file are waited for (a server in stages). */
const PUSH_SETTLE_MS = 100

export interface LspServerOptions extends ServerProcessOptions {
  name: string
  argv: readonly string[]
  root: string
  initializationOptions?: unknown
  tsserver?: boolean
  /**
   * It runs in a process-id namespace of its own (the sandbox), where this process's id means
   * nothing: `processId` is sent as null, else a server that watches it would think us gone.
   */
  ownPidNamespace?: boolean
}

export class LspServer {
  readonly name: string
  readonly process: ServerProcess
  /** Settles once `initialize` was answered; rejects when the server failed before. */
  readonly ready: Promise<void>
  private readonly documents = new Map<string, { version: number; languageId: string }>()
  private readonly published = new Map<string, { count: number; items: LspDiagnostic[] }>()
  private readonly listeners = new Set<() => void>()
  private pull: 'tsserver' | 'lsp' | 'push' = 'push'
  private exited = false

  constructor(private readonly options: LspServerOptions) {
    this.name = options.name
    this.process = new ServerProcess(options.argv, options)
    const { connection } = this.process
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishParams) => {
      const last = this.published.get(params.uri)
      this.published.set(params.uri, { count: (last?.count ?? 0) + 1, items: params.diagnostics })
      for (const listener of [...this.listeners]) listener()
    })
    // Requests a server makes of its client: no settings, nothing to show; every one answered.
    connection.onRequest((method, params) => {
      if (method === 'workspace/configuration') return configurationItems(params).map(() => null)
      return null
    })
    connection.onNotification(() => {})
    connection.listen()
    // A server gone ends every wait on it at once.
    void this.process.exited.then(() => {
      this.exited = true
      for (const listener of [...this.listeners]) listener()
    })
    this.ready = this.initialize()
    // Awaited by each change, with its own deadline; a failure here is reported there.
    this.ready.catch(() => {})
  }

  private async initialize(): Promise<void> {
    const { root, initializationOptions } = this.options
    const rootUri = pathToFileURL(root).href
    const ended = this.process.exited.then((exit) => {
      throw new Error(exit.error ?? `it exited (${exit.signal ?? `code ${exit.code}`})`)
    })
    const answer = (await Promise.race([
      this.process.connection.sendRequest('initialize', {
        processId: this.options.ownPidNamespace ? null : process.pid,
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: root }],
        capabilities: {
          textDocument: {
            synchronization: { dynamicRegistration: false },
            publishDiagnostics: { relatedInformation: false },
            diagnostic: { dynamicRegistration: false },
          },
          workspace: { workspaceFolders: true, configuration: true },
        },
        initializationOptions: initializationOptions ?? null,
      }),
      ended,
    ])) as InitializeResult
    notify(this.process.connection, 'initialized', {})
    if (this.options.tsserver) this.pull = 'tsserver'
    else if (answer.capabilities.diagnosticProvider) this.pull = 'lsp'
  }

  isOpen(path: string): boolean {
    return this.documents.has(uriOf(path))
  }

  /** Opens the document, or replaces its whole text when open. */
  sync(path: string, languageId: string, text: string): void {
    const uri = uriOf(path)
    const open = this.documents.get(uri)
    const { connection } = this.process
    if (open === undefined) {
      this.documents.set(uri, { version: 1, languageId })
      notify(connection, 'textDocument/didOpen', {
        textDocument: { uri, languageId, version: 1, text },
      })
      return
    }
    open.version += 1
    notify(connection, 'textDocument/didChange', {
      textDocument: { uri, version: open.version },
      contentChanges: [{ text }],
    })
  }

  /** How many times the server published for `path` so far (a mark for `diagnostics`). */
  mark(path: string): number {
    return this.published.get(uriOf(path))?.count ?? 0
  }

  /**
   * The file's problems now: pulled, or (a server that only pushes) the first publish after
   * `since` (a `mark`); `undefined` when they did not come by `deadline` (a Date.now() time).
   */
  async diagnostics(
    path: string,
    since: number,
    deadline: number,
  ): Promise<Diagnostic[] | undefined> {
    if (this.pull === 'tsserver') return this.pullTsserver(path, deadline)
    if (this.pull === 'lsp') return this.pullLsp(path, deadline)
    const uri = uriOf(path)
    const pushed = await this.until(() => this.mark(path) > since, deadline)
    if (!pushed) return undefined
    // A server may publish in stages (syntax, then types): take the last within a moment.
    const settled = Math.min(deadline, Date.now() + PUSH_SETTLE_MS)
    const count = this.mark(path)
    await this.until(() => this.mark(path) > count, settled)
    return (this.published.get(uri)?.items ?? []).map((item) => fromLsp(path, item, this.name))
  }

  /** Every problem the server has published, by path. */
  allPublished(): Diagnostic[] {
    const all: Diagnostic[] = []
    for (const [uri, { items }] of this.published) {
      const path = decodeURIComponent(new URL(uri).pathname)
      for (const item of items) all.push(fromLsp(path, item, this.name))
    }
    return all
  }

  private async pullTsserver(path: string, deadline: number): Promise<Diagnostic[] | undefined> {
    const ask = (command: string) =>
      this.request<{ body?: TsserverDiagnostic[] }>(
        'workspace/executeCommand',
        { command: 'typescript.tsserverRequest', arguments: [command, { file: path }] },
        deadline,
      )
    const [syntax, semantic] = await Promise.all([
      ask('syntacticDiagnosticsSync'),
      ask('semanticDiagnosticsSync'),
    ])
    if (syntax === undefined || semantic === undefined) return undefined
    return [...(syntax.body ?? []), ...(semantic.body ?? [])].map((item) =>
      fromTsserver(path, item),
    )
  }

  private async pullLsp(path: string, deadline: number): Promise<Diagnostic[] | undefined> {
    const report = await this.request<{ kind: string; items?: LspDiagnostic[] }>(
      'textDocument/diagnostic',
      { textDocument: { uri: uriOf(path) } },
      deadline,
    )
    return report?.items?.map((item) => fromLsp(path, item, this.name))
  }

  /** A request answered by `deadline`, else cancelled: `undefined`. A failed one too. */
  private async request<T>(
    method: string,
    params: unknown,
    deadline: number,
  ): Promise<T | undefined> {
    const source = new CancellationTokenSource()
    const timer = setTimeout(() => source.cancel(), Math.max(0, deadline - Date.now()))
    try {
      return (await this.process.connection.sendRequest(method, params, source.token)) as T
    } catch {
      // Cancelled at the deadline, or the server failed the request: no answer in time.
      return undefined
    } finally {
      clearTimeout(timer)
      source.dispose()
    }
  }

  private until(done: () => boolean, deadline: number): Promise<boolean> {
    if (done() || this.exited) return Promise.resolve(done())
    return new Promise((resolve) => {
      const finish = (value: boolean) => {
        clearTimeout(timer)
        this.listeners.delete(check)
        resolve(value)
      }
      const check = () => (this.exited ? finish(done()) : done() && finish(true))
      const timer = setTimeout(() => finish(done()), Math.max(0, deadline - Date.now()))
      this.listeners.add(check)
    })
  }

  /** `shutdown` and `exit` when it answers quickly, then the process group ended either way. */
  async stop(): Promise<void> {
    const { connection } = this.process
    try {
      const source = new CancellationTokenSource()
      setTimeout(() => source.cancel(), 500).unref()
      await connection.sendRequest('shutdown', undefined, source.token)
      notify(connection, 'exit', undefined)
    } catch {
      // A server that does not answer is ended below.
    }
    await this.process.kill()
  }
}

/**
 * Sends a notification without waiting for it. A server that died mid-write rejects the send
 * (its pipe is gone); that death is the process's exit, reported there, so the rejection is
 * dropped here rather than left unhandled.
 */
function notify(connection: MessageConnection, method: string, params: unknown): void {
  connection.sendNotification(method, params).catch(() => {})
}

interface PublishParams {
  uri: string
  diagnostics: LspDiagnostic[]
}

function configurationItems(params: unknown): unknown[] {
  const items = (params as { items?: unknown } | undefined)?.items
  return Array.isArray(items) ? items : []
}

export function uriOf(path: string): string {
  return pathToFileURL(path).href
}
