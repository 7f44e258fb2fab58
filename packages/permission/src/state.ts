// Per-session permission state: the tools the person chose to always allow, and the real
// paths of the session's roots. Held in a WeakMap keyed by the session object (as fs-policy's
// gate does), so a finished session's state goes with it; `clear` forgets every session when
// the plugin is disposed. No I/O here: the caller computes the roots' real paths.
// Call targets are never cached: each call's locations are resolved afresh.

interface SessionRecord {
  /**
   * Keys the person chose `allow_always` for (a tool's name, or the keys its calls name, such
   * as a command's prefix); they still apply only inside the roots.
   */
  alwaysAllowed: Set<string>
  /** The roots' real paths, for the roots list they were computed from. */
  roots?: { key: string; real: Promise<string[]> }
}

export class PermissionState {
  private sessions = new WeakMap<object, SessionRecord>()

  /** Every one of `keys` was allowed always in the session (and there is at least one). */
  isAlwaysAllowed(session: object, keys: readonly string[]): boolean {
    const allowed = this.sessions.get(session)?.alwaysAllowed
    return allowed !== undefined && keys.length > 0 && keys.every((key) => allowed.has(key))
  }

  allowAlways(session: object, keys: readonly string[]): void {
    const allowed = this.record(session).alwaysAllowed
    for (const key of keys) allowed.add(key)
  }

  /**
   * The session's roots' real paths, computed once per session while its roots list stays the
   * same (a root's real path is taken as fixed for the session: re-pointing a root's symlink
   * mid-session is not noticed). A changed list is computed again, and so is one that left a
   * root out (`compute` gives fewer paths than roots: one the provider could not explain, such
   * as a link loop), at the next call.
   */
  realRoots(
    session: object,
    roots: readonly string[],
    compute: () => Promise<string[]>,
  ): Promise<string[]> {
    const record = this.record(session)
    const key = JSON.stringify(roots)
    if (record.roots?.key === key) return record.roots.real
    const real = compute()
    const entry = { key, real }
    record.roots = entry
    void real.then((paths) => {
      if (paths.length < roots.length && record.roots === entry) delete record.roots
    })
    return real
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
