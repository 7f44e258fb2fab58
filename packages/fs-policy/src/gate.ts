// ObservedStateGate: per session, the last version of each file that session observed, and
// the write/edit conditions that follow from it (SPEC §6). Pure state, no I/O, no Cordis.
// A session is the actor's (a tool call's) `session`; it is held weakly, so a finished
// session's observations go with it.
import type {
  FsActor,
  FsEditExpectation,
  FsSession,
  FsTarget,
  FsVersion,
  FsWriteIntent,
} from '@deepseek-ai/dsh-fs'
import { notObservedError } from '@deepseek-ai/dsh-fs/provider'

export class ObservedStateGate {
  private observed = new WeakMap<FsSession, Map<string, FsVersion>>()

  /** Records that the actor's session saw `target` at `version` (a read, write or edit). */
  record(target: FsTarget, version: FsVersion, actor: FsActor): void {
    const { session } = actor
    let versions = this.observed.get(session)
    if (versions === undefined) {
      versions = new Map()
      this.observed.set(session, versions)
    }
    versions.set(target.targetKey, version)
  }

  /** The version the actor's session last observed, or `undefined` (never). */
  observedVersion(target: FsTarget, actor: FsActor): FsVersion | undefined {
    return this.observed.get(actor.session)?.get(target.targetKey)
  }

  /** Observed → replace only at that version; otherwise only create a file that is absent. */
  writeIntent(target: FsTarget, actor: FsActor): FsWriteIntent {
    const version = this.observedVersion(target, actor)
    return version === undefined
      ? { kind: 'createIfAbsent' }
      : { kind: 'replaceIfVersion', version }
  }

  /** Observed → edit only at that version; otherwise refuse with FS_NOT_OBSERVED. */
  editIntent(target: FsTarget, actor: FsActor): FsEditExpectation {
    const version = this.observedVersion(target, actor)
    if (version !== undefined) return { version }
    throw notObservedError(target.displayPath, 'edit')
  }

  /** Forgets every observation of every session. */
  clear(): void {
    this.observed = new WeakMap()
  }
}
