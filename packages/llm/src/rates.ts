// Which rates a request pays: a model priced by the clock (DeepSeek's peak and off-peak hours)
// pays its peak rates inside the `peak` windows and its off-peak rates outside them; any other
// model pays its one set of rates. Pure: the time is given, in UTC.
import type { LlmPeakWindow, LlmPrices, LlmRates } from './types'

/** The rates in force at `at` (a request pays those of the moment it was sent). */
export function ratesAt(prices: LlmPrices, at: Date): LlmRates {
  const { offPeak, peak } = prices
  if (offPeak === undefined || peak === undefined || inPeak(peak, at)) {
    const { inputPerMillion, cachedInputPerMillion, outputPerMillion } = prices
    return { inputPerMillion, cachedInputPerMillion, outputPerMillion }
  }
  return { ...offPeak }
}

/** True when `at` falls inside one of `windows`. */
export function inPeak(windows: readonly LlmPeakWindow[], at: Date): boolean {
  const minute = at.getUTCHours() * 60 + at.getUTCMinutes()
  const day = at.getUTCDay()
  return windows.some(
    (window) =>
      window.days.includes(day) &&
      minute >= minutesOf(window.from) &&
      minute < minutesOf(window.to),
  )
}

/** The minutes since midnight of `HH:MM` (`24:00` is the end of the day). */
export function minutesOf(time: string): number {
  const [hours, minutes] = time.split(':').map(Number)
  return (hours ?? 0) * 60 + (minutes ?? 0)
}

/** What `usage`-like token counts cost at `rates`, in the prices' currency. */
export function costOf(
  rates: LlmRates,
  tokens: { input: number; cached: number; output: number },
): number {
  const cached = Math.min(tokens.input, tokens.cached)
  return (
    ((tokens.input - cached) * rates.inputPerMillion +
      cached * rates.cachedInputPerMillion +
      tokens.output * rates.outputPerMillion) /
    1_000_000
  )
}
