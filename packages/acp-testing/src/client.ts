// The harness's ACP client: the SDK's own client app, recording every `session/update` it
// receives and answering every `session/request_permission` the way the test says (by default:
// the first `allow_once` option, as a person clicking "Allow" would), recording each request;
// with an editor, it serves `fs/read_text_file` and `fs/write_text_file` from its buffers.
// Test support only.
import { client as acpClient, methods } from '@agentclientprotocol/sdk'
import type {
  ClientConnection,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionNotification,
  Stream,
} from '@agentclientprotocol/sdk'
import type { HarnessEditor } from './editor'

/** How the client answers a permission request; may wait (a person thinking). */
export type PermissionAnswerer = (
  request: RequestPermissionRequest,
) => RequestPermissionResponse | Promise<RequestPermissionResponse>

/** Picks the option of `kind` (the first such), or answers `cancelled` when none is offered. */
export function choose(kind: 'allow_once' | 'allow_always' | 'reject_once'): PermissionAnswerer {
  return (request) => {
    const option = request.options.find((offered) => offered.kind === kind)
    return option
      ? { outcome: { outcome: 'selected', optionId: option.optionId } }
      : { outcome: { outcome: 'cancelled' } }
  }
}

interface UpdateWaiter {
  match: (notification: SessionNotification) => boolean
  resolve: (notification: SessionNotification) => void
}

export class HarnessClient {
  /** Every `session/update` received, in arrival order. */
  readonly updates: SessionNotification[] = []
  /** Every `session/request_permission` received, in arrival order. */
  readonly permissionRequests: RequestPermissionRequest[] = []
  /** How the next permission requests are answered; tests may swap it at any time. */
  answer: PermissionAnswerer
  readonly connection: ClientConnection
  private readonly waiters = new Set<UpdateWaiter>()

  constructor(
    stream: Stream,
    answer: PermissionAnswerer = choose('allow_once'),
    editor?: HarnessEditor,
  ) {
    this.answer = answer
    let app = acpClient({ name: 'dsh-acp-harness' })
      .onNotification(methods.client.session.update, ({ params }) => this.received(params))
      .onRequest(methods.client.session.requestPermission, ({ params }) => {
        this.permissionRequests.push(params)
        return this.answer(params)
      })
    if (editor?.capabilities.readTextFile) {
      app = app.onRequest(methods.client.fs.readTextFile, ({ params }) => editor.read(params))
    }
    if (editor?.capabilities.writeTextFile) {
      app = app.onRequest(methods.client.fs.writeTextFile, ({ params }) => editor.write(params))
    }
    this.connection = app.connect(stream)
  }

  /** Resolves with the first update (already received or coming) that matches. */
  waitForUpdate(match: (n: SessionNotification) => boolean): Promise<SessionNotification> {
    const found = this.updates.find(match)
    if (found) return Promise.resolve(found)
    return new Promise((resolve) => this.waiters.add({ match, resolve }))
  }

  private received(notification: SessionNotification): void {
    this.updates.push(notification)
    for (const waiter of this.waiters) {
      if (!waiter.match(notification)) continue
      this.waiters.delete(waiter)
      waiter.resolve(notification)
    }
  }
}
