// AcpSessionChannels: the channels an ACP session's agent is created with (asking, notices,
// editor files, the wait for what was written). The agents service takes them whole when it
// creates the session, and a child session shares them through its root's scope; they answer
// through the session's record (./session-record), which the bridge makes once the agent
// exists and joins to them at once, before any turn can run.
import type {
  ToolEditorFiles,
  ToolNotice,
  ToolPermissionAnswer,
  ToolPermissionRequest,
  ToolSessionChannels,
} from '@deepseek-ai/dsh-tools'

/** What the channels reach of the session's record. */
export interface AcpChannelTarget {
  ask(request: ToolPermissionRequest): Promise<ToolPermissionAnswer>
  tell(notice: ToolNotice): void
  readonly editorFiles: ToolEditorFiles
}

export class AcpSessionChannels implements ToolSessionChannels {
  private target: AcpChannelTarget | undefined
  /** The last update handed on: updates are written in order, so all before it are too. */
  private lastWrite: Promise<void> = Promise.resolve()

  /** Joins the channels to the session's record, as it is made. */
  attach(target: AcpChannelTarget): void {
    this.target = target
  }

  // Properties, not methods: a caller may take a channel off the object and call it alone.
  readonly ask = (request: ToolPermissionRequest): Promise<ToolPermissionAnswer> => {
    if (this.target !== undefined) return this.target.ask(request)
    return Promise.resolve({ outcome: 'failed', reason: 'The ACP session is not open yet.' })
  }

  readonly notice = (notice: ToolNotice): void => {
    this.target?.tell(notice)
  }

  get files(): ToolEditorFiles | undefined {
    return this.target?.editorFiles
  }

  /** Resolves once every update handed on so far was written out (see `track`). */
  readonly written = (): Promise<void> => this.lastWrite

  /** Remembers the write of the latest update, for `written`. */
  track(write: void | Promise<void>): void {
    if (write !== undefined) this.lastWrite = write.catch(() => undefined)
  }
}
