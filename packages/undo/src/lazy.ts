// A value made at its first call, not before: the undo store is chosen (git looked for, which
// starts a process) when a snapshot, an undo or a session's repair first needs it. Cordis-free.

/** Calls `make` at the first call and gives its promise to every call; `started` without making. */
export interface Lazy<T> {
  (): Promise<T>
  /** The promise if a call made it, else undefined (nothing is made). */
  started(): Promise<T> | undefined
}

export function lazy<T>(make: () => Promise<T>): Lazy<T> {
  let made: Promise<T> | undefined
  const get = (() => (made ??= make())) as Lazy<T>
  get.started = () => made
  return get
}
