// The `file_path` argument shared by the three tools: a non-empty string a filesystem can name,
// and how a call resolves it. A NUL or an unpaired UTF-16 surrogate cannot be stored in a file
// name as given (a surrogate would turn into U+FFFD, naming another file), so such paths are
// refused at the boundary.
import type { Context } from 'cordis'
import type { FsTarget } from '@deepseek-ai/dsh-fs'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'

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

/**
 * `file_path` resolved for the call's session: relative to its workspace, and routed by it when
 * the provider serves sessions from different places (the session is opaque to the tools).
 */
export function resolveFor(ctx: Context, path: string, exec: ToolExecution): Promise<FsTarget> {
  const session = exec.agent?.session
  return ctx.fs.resolve(path, { cwd: session?.header.cwd, session })
}
