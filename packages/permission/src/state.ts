// Per-session permission state: the tools the person chose to always allow, and the real
// paths of the session's roots. Held in a WeakMap keyed by the session object (as fs-policy's
// gate does), so a finished session's state goes with it; `clear` forgets every session when
// the plugin is disposed. No I/O here: the caller computes the roots' real paths.
// Call targets are never cached: each call's locations are resolved afresh.

interface SessionRecord {
  /** Tool names the person chose `allow_always` for; they still apply only inside the roots. */
  alwaysAllowed: Set<string>
  /** The roots' real paths, for the roots list they were computed from. */
  roots?: { key: string; real: Promise<string[]> }
}

export class PermissionState {
  private sessions = new WeakMap<object, SessionRecord>()

  isAlwaysAllowed(session: object, tool: string): boolean {
    return this.sessions.get(session)?.alwaysAllowed.has(tool) ?? false
  }

  allowAlways(session: object, tool: string): void {
    this.record(session).alwaysAllowed.add(tool)
  }

  /**
   * The session's roots' real paths, computed once per session while its roots list stays the
   * same (a root's real path is taken as fixed for the session: re-pointing a root's symlink
   * mid-session is not noticed). A changed list is computed again.
   */
  realRoots(
    session: object,
    roots: readonly string[],
    compute: () => Promise<string[]>,
  ): Promise<string[]> {
    const record = this.record(session)
    const key = JSON.stringify(roots)
    if (record.roots?.key !== key) record.roots = { key, real: compute() }
    return record.roots.real
  }

  /** Forgets every session. */
  clear(): void {
    this.sessions = new WeakMap()
  }

  private record(session: object): SessionRecord {
    let record = this.sessions.get(session)
    if (record === undefined) {
      record = { alwaysAllowed: new Set() }
      this.sessions.set(session, record)
    }
    return record
  }
}
