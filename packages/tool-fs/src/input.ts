// The `file_path` argument shared by the three tools: a non-empty string a filesystem can name,
// and how a call resolves it. A NUL or an unpaired UTF-16 surrogate cannot be stored in a file
// name as given (a surrogate would turn into U+FFFD, naming another file), so such paths are
// refused at the boundary.
import type { FileSystem, FsTarget } from '@deepseek-ai/dsh-fs'
import type { EventBus, ToolExecution } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'
import type { DiagnosticsLookup } from './diagnostics'
import type { PreviewedVersions } from './previewed-versions'

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

export function filePathInput(description: string) {
  return z
    .string()
    .min(1)
    .refine((path) => !path.includes('\0'), 'must not contain a NUL character')
    .refine(
      (path) => !UNPAIRED_SURROGATE.test(path),
      'must be valid Unicode text (it contains an unpaired surrogate)',
    )
    .describe(description)
}

/** What the tools use of the app: ctx.fs and the fs/* events, taken when the plugin is applied. */
export interface ToolFsHost {
  fs: FileSystem
  events: EventBus
  /** ctx.diagnostics when a provider is loaded: a change's new errors join its result. */
  diagnostics?: DiagnosticsLookup
  /** What each asked call's preview showed: the call changes the file only at that version. */
  previews: PreviewedVersions
}

/**
 * `file_path` resolved for the call's session: relative to its workspace, and routed by it when
 * the provider serves sessions from different places (the session is opaque to the tools), and
 * once per call (the permission layer resolved the same path for this call a moment ago). A
 * write or an edit resolves for a `change`: it then lands where the path led when judged, or
 * fails with FS_PATH_CHANGED.
 */
export function resolveFor(
  host: ToolFsHost,
  path: string,
  exec: ToolExecution,
  change = false,
): Promise<FsTarget> {
  const { session } = exec
  const options = { cwd: session.header.cwd, session, call: exec }
  return host.fs.resolve(path, change ? { ...options, change } : options)
}
