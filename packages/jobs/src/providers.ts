// The providers behind ctx.jobs and the lookup of one session's job among them. Cordis-free:
// the service (./index) adds and removes providers as their plugins come and go.
import type { ToolSession } from '@deepseek-ai/dsh-tools'
import { JobError } from './errors'
import type { JobProvider, JobSummary } from './types'

export class JobProviders {
  private readonly providers = new Set<JobProvider>()

  /** Adds `provider`; the returned function removes it. */
  add(provider: JobProvider): () => void {
    this.providers.add(provider)
    return () => void this.providers.delete(provider)
  }

  get size(): number {
    return this.providers.size
  }

  /** Every job `session` started, provider by provider, each provider's oldest first. */
  list(session: ToolSession | undefined): JobSummary[] {
    return [...this.providers].flatMap((provider) => provider.list(session))
  }

  /** The provider that holds job `id` of `session`; JOB_NOT_FOUND, listing its jobs, when none. */
  find(id: string, session: ToolSession | undefined): JobProvider {
    for (const provider of this.providers) {
      if (provider.list(session).some((job) => job.id === id)) return provider
    }
    throw new JobError('JOB_NOT_FOUND', notFoundMessage(id, this.list(session)))
  }
}

function notFoundMessage(id: string, jobs: JobSummary[]): string {
  const known =
    jobs.length === 0
      ? 'this session has none'
      : `this session's jobs: ${jobs
          .map((job) => `${job.id} (${job.label}, ${job.running ? 'running' : 'ended'})`)
          .join('; ')}`
  return (
    `No background job "${id}" (${known}). Use the id a bash or task call with ` +
    '`run_in_background` returned.'
  )
}
