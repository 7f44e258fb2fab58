// The session's background commands as a ctx.jobs provider: `bash` with `run_in_background`
// starts a job on ctx.shell's job table named by its call id and tracks it here under the
// call's session, so `job_output` and `job_kill` (the jobs seam's tools) find it by that id
// and only that session sees it. Reading gives the output since the last read, capped as a
// command's is, and whether it still runs or how it ended; killing ends its process group.
// A job the shell forgot (its session ended, its provider went away) is no longer listed.
import type { JobProvider, JobSummary } from '@deepseek-ai/dsh-jobs'
import type { Shell, ShellProcess } from '@deepseek-ai/dsh-shell'
import type { ToolExecution, ToolSession } from '@deepseek-ai/dsh-tools'
import { endingOf } from './ending'
import { CommandOutput } from './output'
import { commandTitle } from './present'
import { spillOf } from './spill'
import type { SpillStore } from './spill'

export interface CommandJobsHost {
  /** Looked up each time: a replaced shell provider is used. */
  readonly shell: Shell
  /** Where the whole of a cut read is kept. */
  spills: SpillStore
}

interface TrackedJob {
  command: string
  running: boolean
}

/** The key of calls that come without a session (a host of its own, a test). */
const NO_SESSION = {}

export class CommandJobs implements JobProvider {
  private readonly sessions = new WeakMap<object, Map<string, TrackedJob>>()

  constructor(private readonly host: CommandJobsHost) {}

  /** Tracks job `id` (started by `exec`) under the call's session until the shell forgets it. */
  track(id: string, exec: ToolExecution, command: string, started: ShellProcess): void {
    const key = exec.session ?? NO_SESSION
    const jobs = this.sessions.get(key) ?? new Map<string, TrackedJob>()
    this.sessions.set(key, jobs)
    const job: TrackedJob = { command, running: true }
    jobs.set(id, job)
    void started.exited.then(() => {
      job.running = false
    })
  }

  list(session: ToolSession | undefined): JobSummary[] {
    const jobs = this.sessions.get(session ?? NO_SESSION)
    if (jobs === undefined) return []
    const known = this.host.shell.jobs
    return [...jobs].flatMap(([id, job]) =>
      known.has(id)
        ? [{ id, label: `command: ${commandTitle(job.command)}`, running: job.running }]
        : [],
    )
  }

  read(id: string, exec: ToolExecution): string {
    const read = this.host.shell.jobs.read(id)
    const output = new CommandOutput(() => spillOf(this.host.spills, exec, `job-${exec.callId}`))
    output.push(read.output)
    const { text } = output.finish()
    const dropped = read.dropped > 0 ? `[${read.dropped} earlier characters were dropped]\n` : ''
    const body = text.length > 0 && !text.endsWith('\n') ? `${text}\n` : text
    const state = read.exit === undefined ? 'still running' : `ended: ${endingOf(read.exit, 0)}`
    return `${dropped}${body}job ${id} ${state}`
  }

  async kill(id: string): Promise<string> {
    const exit = await this.host.shell.jobs.kill(id)
    return `job ${id} ended: ${endingOf(exit, 0)}`
  }
}
