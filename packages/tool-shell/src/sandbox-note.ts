// The line a result ends with when the sandbox kept a write in: the command ran confined and
// the operating system answered a write with its own "Read-only file system" error. It says
// what happened and how to go further (escalate), so the model neither retries blindly nor
// works around it. Pure.
import type { ShellExit } from '@deepseek-ai/dsh-shell'

/** The error text of EROFS, as bash and coreutils print it. */
const READ_ONLY_ERROR = /Read-only file system/

export function sandboxNote(exit: ShellExit, output: string): string | undefined {
  if (exit.confined === undefined || !READ_ONLY_ERROR.test(output)) return undefined
  const kept =
    exit.confined === 'workspace'
      ? "The sandbox kept this command's writes inside the workspace"
      : 'The sandbox lets no command write in read-only mode'
  return (
    `${kept}: a write elsewhere fails with "Read-only file system". To write there, run the ` +
    'command again with `escalate: true` and a `justification`; the person will be asked.'
  )
}
