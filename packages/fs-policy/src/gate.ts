// ObservedStateGate: per session, the last version of each file that session observed, and
// the write/edit conditions that follow from it (SPEC §6). Pure state, no I/O, no Cordis.
// A session is the object at `actor.agent.session` (a tool execution's agent session); it is
// held weakly, so a finished session's observations go with it.
import type { FsEditExpectation, FsTarget, FsVersion, FsWriteIntent } from '@deepseek-ai/dsh-fs'
import { notObservedError } from '@deepseek-ai/dsh-fs/provider'

/** The part of an actor the gate reads: a tool execution's `agent.session`. */
export interface FsPolicyActor {
  agent?: { session?: object }
}

/** The session object of an actor, or `undefined` when it has none. */
export function sessionOf(actor: unknown): object | undefined {
  if (typeof actor !== 'object' || actor === null) return undefined
  const agent: unknown = (actor as FsPolicyActor).agent
  if (typeof agent !== 'object' || agent === null) return undefined
  const session: unknown = (agent as { session?: unknown }).session
  return typeof session === 'object' && session !== null ? session : undefined
}

export class ObservedStateGate {
  private observed = new WeakMap<object, Map<string, FsVersion>>()

  /** Records that the actor's session saw `target` at `version` (a read, write or edit). */
  record(target: FsTarget, version: FsVersion, actor: unknown): void {
    const session = sessionOf(actor)
    if (session === undefined) return
    let versions = this.observed.get(session)
    if (versions === undefined) {
      versions = new Map()
      this.observed.set(session, versions)
    }
    versions.set(target.targetKey, version)
  }

  /** The version the actor's session last observed, or `undefined` (never, or no session). */
  observedVersion(target: FsTarget, actor: unknown): FsVersion | undefined {
    const session = sessionOf(actor)
    return session === undefined ? undefined : this.observed.get(session)?.get(target.targetKey)
  }

  /** Observed → replace only at that version; otherwise only create a file that is absent. */
  writeIntent(target: FsTarget, actor: unknown): FsWriteIntent {
    const version = this.observedVersion(target, actor)
    return version === undefined
      ? { kind: 'createIfAbsent' }
      : { kind: 'replaceIfVersion', version }
  }

  /** Observed → edit only at that version; otherwise refuse with FS_NOT_OBSERVED. */
  editIntent(target: FsTarget, actor: unknown): FsEditExpectation {
    const version = this.observedVersion(target, actor)
    if (version !== undefined) return { version }
    throw notObservedError(target.displayPath, 'edit')
  }

  /** Forgets every observation of every session. */
  clear(): void {
    this.observed = new WeakMap()
  }
}
