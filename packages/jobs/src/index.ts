// ctx.jobs: a session's background work behind one seam. Providers (tool-shell's background
// commands, tool-task's background tasks) provide their jobs into it; the service registers
// the two tools that read and end any of them, `job_output` and `job_kill` (./tools), and
// finds the provider holding an id among the call's session's jobs (./providers). It runs no
// work itself and knows no kind of job: what a job is, how it reads and how it ends is its
// provider's. Everything registered goes away when the service or a provider is disposed.
import { Service } from 'cordis'
import type { Context } from 'cordis'
import type { ToolSession } from '@deepseek-ai/dsh-tools'
import { JobProviders } from './providers'
import { createJobKillTool, createJobOutputTool } from './tools'
import type { JobProvider, JobSummary } from './types'

declare module 'cordis' {
  interface Context {
    jobs: Jobs
  }
}

export default class Jobs extends Service {
  static inject = ['tools']

  private readonly providers = new JobProviders()

  /** Takes no options; `{}` is accepted so hosts can load every service alike. */
  constructor(ctx: Context, _config?: Record<string, never>) {
    super(ctx, 'jobs')
    ctx.tools.register(createJobOutputTool(this.providers))
    ctx.tools.register(createJobKillTool(this.providers))
  }

  /**
   * Adds a provider of background jobs until the returned function is called or the caller's
   * plugin is disposed.
   */
  provide(provider: JobProvider): () => void {
    const { providers } = this
    const dispose = this.ctx.effect(() => providers.add(provider), 'jobs provider')
    return () => void dispose()
  }

  /** Every background job `session` started, whichever provider holds it. */
  list(session: ToolSession | undefined): JobSummary[] {
    return this.providers.list(session)
  }

  /** How many providers are in. */
  get size(): number {
    return this.providers.size
  }
}

export { JOB_ERROR_CODES, JobError, isJobError } from './errors'
export type { JobErrorCode } from './errors'
export type * from './types'
