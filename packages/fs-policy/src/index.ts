// FsPolicy: read-before-write/edit and freshness for ctx.fs, as a gate on the fs/* events.
// It answers `fs/write-intent` and `fs/edit-intent` from what each session recorded through
// `fs/observed` (SPEC §6). No service, no I/O: the provider enforces the conditions (a changed
// file fails FS_STALE_VERSION there). Without this plugin the file tools are unconditional.
import type { Context } from 'cordis'
import type {} from '@deepseek-ai/dsh-fs' // for its augmentation: the fs/* events
import { ObservedStateGate } from './gate'

export const name = 'fs-policy'

export function apply(ctx: Context): void {
  const gate = new ObservedStateGate()
  ctx.on('fs/observed', (target, version, actor) => gate.record(target, version, actor))
  // Both intents are decided here, so `next` is not called: the policy is the answer.
  ctx.on('fs/write-intent', (target, actor) => gate.writeIntent(target, actor))
  ctx.on('fs/edit-intent', (target, actor) => gate.editIntent(target, actor))
  ctx.effect(() => () => gate.clear(), 'fs-policy state')
}
