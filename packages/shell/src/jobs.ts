// ShellJobs: the background jobs of one shell provider. A job is a started command with an id
// (the caller's: the tool call that started it), an unread-output buffer, and a lifetime signal
// (its session): when that signal fires, the job's process group is ended and the job is
// forgotten. Jobs have no timeout. Cordis-free; it starts processes only through `start`.
import { ShellError } from './errors'
import type { ShellExit, ShellJobRead, ShellProcess, ShellRunOptions } from './types'

/** The most unread output a job keeps; older output is dropped and counted. */
export const SHELL_JOB_BUFFER_CHARS = 1024 * 1024

interface JobOutput {
  unread: string[]
  unreadChars: number
  dropped: number
}

interface Job {
  process: ShellProcess
  output: JobOutput
  exit?: ShellExit
  forget: () => void
}

export class ShellJobs {
  private readonly jobs = new Map<string, Job>()

  constructor(private readonly start: (options: ShellRunOptions) => ShellProcess) {}

  /**
   * Starts `options.command` as job `id`; `lifetime` firing ends it and forgets it. Throws
   * SHELL_JOB_EXISTS when a job `id` is known, and what `start` throws.
   */
  run(
    id: string,
    options: Omit<ShellRunOptions, 'timeout' | 'signal'>,
    lifetime?: AbortSignal,
  ): ShellProcess {
    if (this.jobs.has(id)) {
      throw new ShellError('SHELL_JOB_EXISTS', `A background job "${id}" exists already.`)
    }
    const output: JobOutput = { unread: [], unreadChars: 0, dropped: 0 }
    const process = this.start({
      ...options,
      onOutput: (text) => {
        this.buffer(output, text)
        options.onOutput?.(text)
      },
    })
    const onEnd = () => {
      process.kill()
      this.jobs.delete(id)
    }
    lifetime?.addEventListener('abort', onEnd, { once: true })
    const job: Job = {
      process,
      output,
      forget: () => lifetime?.removeEventListener('abort', onEnd),
    }
    this.jobs.set(id, job)
    void process.exited.then((exit) => {
      job.exit = exit
      job.forget()
    })
    if (lifetime?.aborted) onEnd()
    return process
  }

  has(id: string): boolean {
    return this.jobs.has(id)
  }

  /** The output since the previous read, and the exit once the job ended. */
  read(id: string): ShellJobRead {
    const job = this.get(id)
    const { output } = job
    const read: ShellJobRead = { output: output.unread.join(''), dropped: output.dropped }
    output.unread = []
    output.unreadChars = 0
    output.dropped = 0
    if (job.exit !== undefined) read.exit = job.exit
    return read
  }

  /** Ends the job's process group and resolves with how it ended. */
  async kill(id: string): Promise<ShellExit> {
    const job = this.get(id)
    job.process.kill()
    return job.process.exited
  }

  /** Ends every job and forgets them all; resolves once each has exited. */
  async killAll(): Promise<void> {
    const jobs = [...this.jobs.values()]
    this.jobs.clear()
    for (const job of jobs) {
      job.forget()
      job.process.kill()
    }
    await Promise.all(jobs.map((job) => job.process.exited))
  }

  private get(id: string): Job {
    const job = this.jobs.get(id)
    if (job === undefined) {
      const message = `No background job "${id}": it never started here, or its session ended.`
      throw new ShellError('SHELL_JOB_NOT_FOUND', message)
    }
    return job
  }

  private buffer(job: JobOutput, text: string): void {
    job.unread.push(text)
    job.unreadChars += text.length
    while (job.unreadChars > SHELL_JOB_BUFFER_CHARS && job.unread.length > 0) {
      const over = job.unreadChars - SHELL_JOB_BUFFER_CHARS
      const first = job.unread[0] as string
      if (first.length <= over) {
        job.unread.shift()
        job.unreadChars -= first.length
        job.dropped += first.length
      } else {
        job.unread[0] = first.slice(over)
        job.unreadChars -= over
        job.dropped += over
      }
    }
  }
}
