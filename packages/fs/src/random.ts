// A seeded pseudo-random generator for property tests (fuzzing, races): the same seed gives
// the same sequence, so a failure replays. Not for anything that needs real randomness.

/** Numbers in [0, 1) from a 32-bit seed (the mulberry32 mixing function). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
