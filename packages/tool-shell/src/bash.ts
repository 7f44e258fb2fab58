// The `bash` tool: runs a command through ctx.shell in the session workspace and gives the
// model its output (stdout and stderr as they came, capped: ./output) and one closing line —
// `exit code N`, `killed by signal S` or `timed out after T s`. The card fails unless the exit
// code is 0; the model reads the same text either way. Live output is reported to the host in
// batches (./batch). With `run_in_background` it starts a job named by the call id and returns
// at once (./jobs: the jobs seam's job_output and job_kill read and end it). It runs confined as the session's mode
// asks (./confine); with `escalate` (and a `justification`) it asks for no confinement, and a
// result the sandbox kept a write out of ends with a line saying so (./sandbox-note).
import type { Shell, ShellConfinement } from '@deepseek-ai/dsh-shell'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { bashAccess, commandRun } from './access'
import { OutputBatcher } from './batch'
import { offlineRefusal } from './offline'
import { cardWordsOf, endingOf, terminalLastLine } from './ending'
import { confinementOf, cwdOf, dependsOnReads } from './confine'
import type { CommandJobs } from './jobs'
import type { UnsandboxedNotices } from './notice'
import { sandboxNote } from './sandbox-note'
import { CommandOutput } from './output'
import { spillOf } from './spill'
import type { SpillStore } from './spill'
import { bashArgsInput, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from './input'
import type { BashArgs, BashDetails } from './input'
import { bashPreview, presentBashCall, presentBashResult } from './present'

export interface BashHost {
  shell: Shell
  /** Where the whole output of a cut result is kept. */
  spills: SpillStore
  /** Milliseconds between two reports of live output. */
  batchMs: number
  /** A sandboxed command may reach the network. */
  network: boolean
  /** Where the one-time word about a missing sandbox goes. */
  notices?: UnsandboxedNotices
  /** The session's background commands, as ctx.jobs reads them. */
  jobs: CommandJobs
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

/** Runs the command and gives its result (also run once ahead by ./warm). */
export async function runCommand(host: BashHost, args: BashArgs, exec: ToolExecution) {
  const confined = await confineOf(host, args, exec)
  const refused = await offlineRefusal(host.shell, args.command, confined.confine)
  if (refused !== undefined) return refused
  const asked = args.timeout ?? DEFAULT_TIMEOUT_MS
  const timeout = Math.min(asked, MAX_TIMEOUT_MS)
  const output = new CommandOutput(() => spillOf(host.spills, exec, exec.callId))
  const batcher = new OutputBatcher((text) => exec.report?.({ type: 'output', text }), {
    intervalMs: host.batchMs,
  })
  let last = ''
  const exit = await host.shell.run({
    cwd: cwdOf(exec),
    timeout,
    ...confined,
    ...(exec.signal && { signal: exec.signal }),
    onOutput: (text) => {
      output.push(text)
      batcher.push(text)
      last = text
    },
  })
  const words = cardWordsOf(exit, timeout)
  const lastLine = terminalLastLine(exit, words, last)
  if (lastLine !== undefined) batcher.push(lastLine)
  batcher.flush()
  const captured = output.finish()
  const ending = endingOf(exit, timeout)
  const sandbox = sandboxNote(exit, captured.text, sandboxOf(host, exec))
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
    ...(words !== undefined && { words }),
    ...(lastLine !== undefined && { terminalEnd: lastLine }),
    ...(captured.file !== undefined && { file: captured.file }),
    ...(sandbox !== undefined && { sandbox }),
  }
  const failed = exit.exitCode !== 0 || exit.timedOut || exit.aborted
  const note = sandbox === undefined ? '' : `\n${sandbox}`
  return { content: `${body}${clamped}${ending}${note}`, details, isError: failed }
}

async function startJob(host: BashHost, args: BashArgs, exec: ToolExecution) {
  const confined = await confineOf(host, args, exec)
  const refused = await offlineRefusal(host.shell, args.command, confined.confine)
  if (refused !== undefined) return refused
  const jobId = exec.callId
  const started = host.shell.jobs.run(
    jobId,
    { cwd: cwdOf(exec), ...confined },
    exec.agent?.lifetime,
  )
  host.jobs.track(jobId, exec, args.command, started)
  const details: BashDetails = { kind: 'job', jobId, pid: started.pid }
  const content =
    `Started background job ${jobId}. Read its output with job_output { "job_id": "${jobId}" }; ` +
    `end it with job_kill { "job_id": "${jobId}" }. It runs until it exits, is killed, or the session ends.`
  return { content, details }
}

/** What the sandbox note needs to know of the call: its network and its roots. */
function sandboxOf(host: BashHost, exec: ToolExecution) {
  const header = exec.session.header
  return { network: host.network, roots: header?.roots ?? [cwdOf(exec)] }
}

/**
 * The command as it runs and its confinement (./confine), as run options: a command whose text
 * only reads, the kind that may run unasked, runs read-only, its git guarded (./access).
 */
async function confineOf(
  host: BashHost,
  args: BashArgs,
  exec: ToolExecution,
): Promise<{
  command: string
  env?: Readonly<Record<string, string>>
  confine?: ShellConfinement
}> {
  const options = {
    network: host.network,
    ...(args.escalate !== undefined && { escalate: args.escalate }),
  }
  const run = await commandRun(args.command, exec, args.escalate === true)
  const reads = dependsOnReads(exec, options) && run.reads
  const confine = confinementOf(exec, { ...options, reads })
  return { command: run.command, ...(run.env && { env: run.env }), ...(confine && { confine }) }
}
