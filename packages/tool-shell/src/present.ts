// The cards of the shell tools. A command's card is titled with the command itself (its first
// line, up to 200 characters, with ` (+N lines)` for the rest), since a person must see what
// runs; its description leads the content; it streams as a terminal. Asked about, it is titled
// with its description and shows the whole command once, in a `sh` block, and where it runs. Finished, it shows the output as the model
// got it in a console block, and its exit. Pure and total: presentation never throws.
import { fencedBlock, plainTerminalText } from '@deepseek-ai/dsh-tools'
import type {
  ToolCallPresentation,
  ToolPresentationContent,
  ToolPresentationView,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'
import type { BashArgs, BashDetails } from './input'

export const TITLE_MAX_CHARS = 200

/** The command's first line, clipped, with how many lines follow. */
export function commandTitle(command: string): string {
  const lines = command.trim().split('\n')
  const first = lines[0] ?? ''
  const clipped = first.length > TITLE_MAX_CHARS ? `${first.slice(0, TITLE_MAX_CHARS)}…` : first
  return lines.length > 1 ? `${clipped} (+${lines.length - 1} lines)` : clipped
}

export function presentBashCall(args: BashArgs, view?: ToolPresentationView): ToolCallPresentation {
  return {
    title: commandTitle(args.command),
    kind: 'execute',
    // Asked about, the card reads its description first; the command follows once, whole.
    ...(args.description !== undefined && {
      rawInput: args.description,
      askTitle: args.description,
    }),
    ...(args.run_in_background !== true && { terminal: view?.cwd ? { cwd: view.cwd } : {} }),
  }
}

/**
 * What a person asked about the command reads: the whole command, and where it runs; for a
 * command that leaves the sandbox, that it does and why, first.
 */
export function bashPreview(args: BashArgs, cwd: string): ToolPresentationContent[] {
  const escalation: ToolPresentationContent[] =
    args.escalate === true
      ? [{ type: 'text', text: `Run outside the sandbox: ${args.justification ?? ''}` }]
      : []
  return [
    ...escalation,
    { type: 'text', text: fencedBlock(args.command, 'sh') },
    { type: 'text', text: `in ${cwd}` },
  ]
}

export function presentBashResult(
  args: BashArgs,
  result: ToolResultView<BashDetails>,
): ToolResultPresentation | undefined {
  const details = result.details
  if (details === undefined || details.kind !== 'command') return undefined
  const lead: ToolPresentationContent[] =
    args.description !== undefined ? [{ type: 'text', text: args.description }] : []
  const output: ToolPresentationContent[] =
    details.output.length > 0
      ? [{ type: 'text', text: fencedBlock(plainTerminalText(details.output), 'console') }]
      : []
  const words = wordsOf(details)
  const said = [words, details.sandbox].filter((text) => text !== undefined)
  return {
    content: [...lead, ...output, ...said.map((text) => ({ type: 'text' as const, text }))],
    terminal: {
      output: details.output + (details.terminalEnd ?? ''),
      exitCode: details.exitCode,
      signal: details.signal,
    },
  }
}

/** The card's words of the end: none for a success (its status says it). */
function wordsOf(details: Extract<BashDetails, { kind: 'command' }>): string | undefined {
  if (details.words !== undefined) return details.words
  // A result stored before the card said its end in words: its closing line, unless a success.
  return details.exitCode === 0 && details.signal === null ? undefined : details.ending
}
