// What the operating system says about a process group (from /proc), and polling for a state.

/** The live members of a process group, from /proc (the seam's contract reads it so too). */
export { groupMembers } from '@deepseek-ai/dsh-shell/testing'

/** Polls `probe` until it gives a value (or 5 s pass: then `undefined`). */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  ms = 5000,
): Promise<T | undefined> {
  const end = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined || Date.now() > end) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
