// PreviewedVersions: the version of a file each asked call's preview showed the person, kept
// for the call itself (./preview). Imports no other module of the package, so the host's
// shape (./input) can name it without a circle.
import type { FsTarget, FsVersion } from '@deepseek-ai/dsh-fs'

/**
 * The version of the file each asked call's preview showed the person, by call. The call then
 * changes the file only at that version: typing while the question was open makes it stale.
 * A call that was not asked has no preview, and the change's own read is its only one.
 */
export class PreviewedVersions {
  private readonly byCall = new WeakMap<object, { targetKey: string; version: FsVersion }>()

  record(call: object, target: FsTarget, version: FsVersion): void {
    this.byCall.set(call, { targetKey: target.targetKey, version })
  }

  /** The version the call's preview showed of `target`, once; `undefined` when none did. */
  take(call: object, target: FsTarget): FsVersion | undefined {
    const previewed = this.byCall.get(call)
    this.byCall.delete(call)
    return previewed?.targetKey === target.targetKey ? previewed.version : undefined
  }
}
