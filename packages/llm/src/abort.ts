// Abort helpers shared by model providers: a check and a delay that both end with the
// seam's abort error (`createAbortError`) the moment the request's signal fires.
import { createAbortError } from './errors'

export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw createAbortError(signal)
}

/** Waits `ms`, or rejects with the abort error as soon as `signal` fires. */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(createAbortError(signal))
      return
    }
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(createAbortError(signal))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
