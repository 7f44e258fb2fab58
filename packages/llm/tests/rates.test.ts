// Rates by the clock: inside a peak window the peak rates, outside it the off-peak ones, and a
// model without both pays one set of rates at every hour; a request's cost from its tokens.
import { describe, expect, it } from 'vitest'
import { costOf, inPeak, ratesAt } from '@deepseek-ai/dsh-llm'
import type { LlmPrices } from '@deepseek-ai/dsh-llm'

const peak = [
  { days: [1, 2, 3, 4, 5], from: '01:00', to: '04:00' },
  { days: [1, 2, 3, 4, 5], from: '06:00', to: '10:00' },
]
const prices: LlmPrices = {
  currency: 'USD',
  inputPerMillion: 0.3,
  cachedInputPerMillion: 0.006,
  outputPerMillion: 1.2,
  offPeak: { inputPerMillion: 0.15, cachedInputPerMillion: 0.003, outputPerMillion: 0.6 },
  peak,
}

describe('the rates in force', () => {
  it('a weekday inside a window is peak; its edges and the weekend are not', () => {
    expect(inPeak(peak, new Date('2026-12-07T01:00:00Z'))).toBe(true) // Monday
    expect(inPeak(peak, new Date('2026-12-07T03:59:59Z'))).toBe(true)
    expect(inPeak(peak, new Date('2026-12-07T04:00:00Z'))).toBe(false)
    expect(inPeak(peak, new Date('2026-12-07T05:30:00Z'))).toBe(false)
    expect(inPeak(peak, new Date('2026-12-07T09:59:00Z'))).toBe(true)
    expect(inPeak(peak, new Date('2026-12-05T02:00:00Z'))).toBe(false) // Saturday
  })

  it('peak rates at a peak hour, off-peak rates otherwise', () => {
    expect(ratesAt(prices, new Date('2026-12-08T07:00:00Z')).inputPerMillion).toBe(0.3)
    expect(ratesAt(prices, new Date('2026-12-08T12:00:00Z'))).toEqual(prices.offPeak)
  })

  it('prices without off-peak rates apply at every hour', () => {
    const flat = {
      currency: 'EUR',
      inputPerMillion: 1,
      cachedInputPerMillion: 1,
      outputPerMillion: 1,
    }
    expect(ratesAt(flat, new Date('2026-12-05T12:00:00Z')).inputPerMillion).toBe(1)
  })

  it("a request's cost counts cache hits at their rate and never more hits than input", () => {
    const rates = ratesAt(prices, new Date('2026-12-08T07:00:00Z'))
    expect(costOf(rates, { input: 1_000_000, cached: 400_000, output: 1_000_000 })).toBeCloseTo(
      0.6 * 0.3 + 0.4 * 0.006 + 1.2,
    )
    expect(costOf(rates, { input: 10, cached: 50, output: 0 })).toBeCloseTo(10 * 0.006e-6)
  })
})
