// Editors that stop answering reads. An editor that lets a file read run past the provider's
// timeout is taken to be one that will not answer them (some clients advertise fs access and
// never serve it): from then on its session's files are the disk's, reads and writes alike,
// so no later call waits again. The person is told once per session, through the editor's own
// `notify`. Writes are not judged so: a write may wait on the person (client.ts).
import type { AcpFsClient } from './client'

export class EditorStalls {
  private readonly stalled = new WeakSet<AcpFsClient>()

  /** The editor stopped answering reads: its session's files are the disk's. */
  has(client: AcpFsClient): boolean {
    return this.stalled.has(client)
  }

  /** Marks `client` stalled (a read of `path` timed out) and tells the person, the first time. */
  stall(client: AcpFsClient, path: string, timeoutMs: number): void {
    if (this.stalled.has(client)) return
    this.stalled.add(client)
    client.notify?.({
      severity: 'warning',
      title: `The editor did not answer a file read within ${timeoutMs / 1000} s: this session's files are read and written on disk from now on.`,
      description: `The read of ${path} went unanswered. Unsaved changes in the editor are not seen, and changes are written to disk directly; reopen the session to use the editor's buffers again.`,
    })
  }
}
