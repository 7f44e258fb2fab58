// How a command ended, in two voices: the closing line the model reads (`exit code N`,
// `killed by signal S`, `timed out after T s`, with `(cancelled)` when the call was), and the
// words a person reads on the card. A success has no words: the card's status says it. A
// timeout, a cancel and a signal are said as such, and the same words end the terminal's
// output as its last line, so a client that draws only the terminal sees them too. Pure.
import type { ShellExit } from '@deepseek-ai/dsh-shell'

/** The closing line of a command's result, for the model. */
export function endingOf(exit: ShellExit, timeout: number): string {
  if (exit.timedOut) return `timed out after ${timeout / 1000} s`
  if (exit.signal !== null) {
    return exit.aborted
      ? `killed by signal ${exit.signal} (cancelled)`
      : `killed by signal ${exit.signal}`
  }
  if (exit.aborted) return `exit code ${exit.exitCode} (cancelled)`
  return `exit code ${exit.exitCode}`
}

/** What the card says of the end; `undefined` for a success. */
export function cardWordsOf(exit: ShellExit, timeout: number): string | undefined {
  if (exit.timedOut) {
    return `Timed out after ${timeout / 1000} s: the command and its processes were ended`
  }
  if (exit.aborted) return 'Cancelled: the command and its processes were ended'
  if (exit.signal !== null) return `Killed by signal ${exit.signal}`
  if (exit.exitCode !== 0) return `Failed with exit code ${exit.exitCode}`
  return undefined
}

/**
 * The last line of the terminal for an end that is not an exit code (a timeout, a cancel, a
 * signal), set apart from the output; `undefined` otherwise.
 */
export function terminalLastLine(exit: ShellExit, words: string | undefined, output: string) {
  if (words === undefined || !(exit.timedOut || exit.aborted || exit.signal !== null)) {
    return undefined
  }
  const separator = output.length > 0 && !output.endsWith('\n') ? '\n' : ''
  return `${separator}[${words}]\n`
}
