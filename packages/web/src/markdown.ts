// HTML into Markdown, off the event loop: each page is converted in its own worker thread
// (./markdown-worker.js, one linear pass over htmlparser2's events) with a memory bound, and
// the worker is ended when the fetch's signal aborts (its time cap, or the call's cancel).
// The worker's file sits beside the module that starts it: src/ when running from the sources,
// dist/ in this package's build, and beside the app's bundle (acp-agent builds it there).
import { createRequire } from 'node:module'
import type { Worker } from 'node:worker_threads'
import { WebError } from './errors'

export interface WebMarkdown {
  title?: string
  markdown: string
}

export interface MarkdownOptions {
  /** The page's URL: relative links and images are resolved against it. */
  baseUrl: string
  /** The worker's heap (old generation) at most, in MiB. */
  memoryMb: number
  signal: AbortSignal
}

const WORKER = new URL('./markdown-worker.js', import.meta.url)

/** node:worker_threads' Worker, loaded at the first conversion (not at start), synchronously. */
let workerClassOnce: typeof Worker | undefined
function workerClass(): typeof Worker {
  if (workerClassOnce === undefined) {
    const threads = createRequire(import.meta.url)('node:worker_threads')
    workerClassOnce = (threads as typeof import('node:worker_threads')).Worker
  }
  return workerClassOnce
}

const running = new Set<Worker>()

/** Conversions whose worker is still alive (ended ones, cancelled ones and failed ones are not). */
export function runningConversions(): number {
  return running.size
}

export function htmlToMarkdown(html: string, options: MarkdownOptions): Promise<WebMarkdown> {
  const { signal } = options
  if (signal.aborted) return Promise.reject(signal.reason)
  const worker = new (workerClass())(WORKER, {
    workerData: { html, base: options.baseUrl },
    resourceLimits: {
      maxOldGenerationSizeMb: options.memoryMb,
      maxYoungGenerationSizeMb: Math.max(4, Math.min(32, options.memoryMb / 8)),
    },
    stdout: true,
    stderr: true,
  })
  running.add(worker)
  worker.once('exit', () => running.delete(worker))
  return new Promise<WebMarkdown>((resolve, reject) => {
    const settle = (end: () => void): void => {
      signal.removeEventListener('abort', abort)
      void worker.terminate()
      end()
    }
    const abort = (): void => settle(() => reject(signal.reason))
    signal.addEventListener('abort', abort, { once: true })
    worker.once('message', (result: WebMarkdown) => settle(() => resolve(result)))
    worker.once('error', (error: Error) => settle(() => reject(conversionError(error, options))))
    worker.once('exit', (code) =>
      settle(() => reject(conversionError(new Error(`the converter exited (${code})`), options))),
    )
  })
}

function conversionError(error: Error, options: MarkdownOptions): WebError {
  const memory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
  const reason = memory
    ? `it needed more than ${options.memoryMb} MiB`
    : `the converter failed: ${error.message}`
  return new WebError(
    'WEB_CONVERSION_FAILED',
    `The HTML of ${options.baseUrl} could not be turned into Markdown (${reason}); ` +
      'fetch a smaller or more specific page.',
    { cause: error },
  )
}
