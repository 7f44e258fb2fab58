// The `bash` tool: runs a command through ctx.shell in the session workspace and gives the
// model its output (stdout and stderr as they came, capped: ./output) and one closing line —
// `exit code N`, `killed by signal S` or `timed out after T s`. The card fails unless the exit
// code is 0; the model reads the same text either way. Live output is reported to the host in
// batches (./batch). With `run_in_background` it starts a job named by the call id and returns
// at once (see ./jobs for job_output and job_kill). It runs confined as the session's mode
// asks (./confine); with `escalate` (and a `justification`) it asks for no confinement, and a
// result the sandbox kept a write out of ends with a line saying so (./sandbox-note).
import { join } from 'node:path'
import type { Shell, ShellExit } from '@deepseek-ai/dsh-shell'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'
import { bashAccess } from './access'
import { OutputBatcher } from './batch'
import { confinementOf, cwdOf } from './confine'
import type { UnsandboxedNotices } from './notice'
import { sandboxNote } from './sandbox-note'
import { CommandOutput } from './output'
import { bashPreview, presentBashCall, presentBashResult } from './present'

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
const bashArgsInput = bashInput.refine(
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
      /** The file with the whole output, when it was cut. */
      file?: string
      /** The line saying the sandbox kept a write in, when it did. */
      sandbox?: string
    }
  | { kind: 'job'; jobId: string; pid: number }

export interface BashHost {
  shell: Shell
  /** Where the whole output of a cut result is kept (a folder per session). */
  outputDir: string
  /** Milliseconds between two reports of live output. */
  batchMs: number
  /** A sandboxed command may reach the network. */
  network: boolean
  /** Where the one-time word about a missing sandbox goes. */
  notices?: UnsandboxedNotices
}

export function createBashTool(host: BashHost) {
  return defineTool({
    name: 'bash',
    description:
      'Runs a bash command in the session workspace and returns its output and exit status.',
    input: bashArgsInput,
    execute: (args, exec) =>
      args.run_in_background === true ? startJob(host, args, exec) : runCommand(host, args, exec),
    presentCall: presentBashCall,
    presentResult: presentBashResult,
    access: (args, exec) =>
      bashAccess(host.shell, args.command, exec, {
        network: host.network,
        ...(args.escalate !== undefined && { escalate: args.escalate }),
        ...(host.notices && { notices: host.notices }),
      }),
    preview: async (args, exec) => bashPreview(args, cwdOf(exec)),
  })
}

async function runCommand(host: BashHost, args: BashArgs, exec: ToolExecution) {
  const asked = args.timeout ?? DEFAULT_TIMEOUT_MS
  const timeout = Math.min(asked, MAX_TIMEOUT_MS)
  const output = new CommandOutput(spillPath(host, exec))
  const batcher = new OutputBatcher((text) => exec.report?.({ type: 'output', text }), host.batchMs)
  const exit = await host.shell.run({
    command: args.command,
    cwd: cwdOf(exec),
    timeout,
    ...confineOf(host, args, exec),
    ...(exec.signal && { signal: exec.signal }),
    onOutput: (text) => {
      output.push(text)
      batcher.push(text)
    },
  })
  batcher.flush()
  const captured = output.finish()
  const ending = endingOf(exit, timeout)
  const sandbox = sandboxNote(exit, captured.text)
  const clamped =
    asked > MAX_TIMEOUT_MS
      ? `timeout ${asked} ms is over the limit: it ran with ${MAX_TIMEOUT_MS} ms\n`
      : ''
  const body =
    captured.text.length > 0 && !captured.text.endsWith('\n') ? `${captured.text}\n` : captured.text
  const details: BashDetails = {
    kind: 'command',
    output: captured.text,
    ending,
    exitCode: exit.exitCode,
    signal: exit.signal,
    ...(captured.file !== undefined && { file: captured.file }),
    ...(sandbox !== undefined && { sandbox }),
  }
  const failed = exit.exitCode !== 0 || exit.timedOut || exit.aborted
  const note = sandbox === undefined ? '' : `\n${sandbox}`
  return { content: `${body}${clamped}${ending}${note}`, details, isError: failed }
}

async function startJob(host: BashHost, args: BashArgs, exec: ToolExecution) {
  const jobId = exec.callId
  const started = host.shell.jobs.run(
    jobId,
    { command: args.command, cwd: cwdOf(exec), ...confineOf(host, args, exec) },
    exec.agent?.lifetime,
  )
  const details: BashDetails = { kind: 'job', jobId, pid: started.pid }
  const content =
    `Started background job ${jobId}. Read its output with job_output { "job_id": "${jobId}" }; ` +
    `end it with job_kill { "job_id": "${jobId}" }. It runs until it exits, is killed, or the session ends.`
  return { content, details }
}

/** The closing line of a command's result. */
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

/** The confinement the call runs with (./confine), as run options. */
function confineOf(host: BashHost, args: BashArgs, exec: ToolExecution) {
  const confine = confinementOf(exec, {
    network: host.network,
    ...(args.escalate !== undefined && { escalate: args.escalate }),
  })
  return confine === undefined ? {} : { confine }
}

function spillPath(host: BashHost, exec: ToolExecution): string {
  const session = exec.agent?.session.header.id ?? 'no-session'
  return join(host.outputDir, safeName(session), `${safeName(exec.callId)}.log`)
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || '_'
}
