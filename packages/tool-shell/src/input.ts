// The `bash` tool's input: its schema for the model, the check an escalation must pass, the
// arguments and details types, and the timeout bounds. Types and data only, shared by the tool
// (./bash) and its presentation (./present).
import { z } from 'zod'

export const DEFAULT_TIMEOUT_MS = 120_000
export const MAX_TIMEOUT_MS = 600_000

export const bashInput = z.object({
  command: z.string().min(1).describe('The command line, run by bash -c in the session workspace.'),
  description: z
    .string()
    .optional()
    .describe('What the command does, in 5-10 words, shown to the person.'),
  timeout: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      `Milliseconds before it is killed: default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}.`,
    ),
  run_in_background: z
    .boolean()
    .optional()
    .describe('Start it as a background job and return at once (no timeout).'),
  escalate: z
    .boolean()
    .optional()
    .describe(
      'Run this one command outside the sandbox (it may write anywhere); the person is always asked.',
    ),
  justification: z
    .string()
    .min(1)
    .optional()
    .describe('With escalate: why the command must run outside the sandbox, shown to the person.'),
})

/** The arguments as checked: an escalation must say why. */
export const bashArgsInput = bashInput.refine(
  (args) => args.escalate !== true || args.justification !== undefined,
  {
    message:
      'escalate: true needs a justification: say why the command must write outside the sandbox.',
    path: ['justification'],
  },
)

export type BashArgs = z.infer<typeof bashInput>

export type BashDetails =
  | {
      kind: 'command'
      /** The output as the model got it. */
      output: string
      /** The closing line. */
      ending: string
      exitCode: number | null
      signal: string | null
      /** What the card says of the end (a timeout, a cancel, a signal, a failure); none: a success. */
      words?: string
      /** The terminal's last line, for an end that is not an exit code. */
      terminalEnd?: string
      /** The file with the whole output, when it was cut. */
      file?: string
      /** The line saying the sandbox kept a write in, when it did. */
      sandbox?: string
    }
  | { kind: 'job'; jobId: string; pid: number }
