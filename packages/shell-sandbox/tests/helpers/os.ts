// What the operating system says: the live members of a process group (from /proc, not our
// own bookkeeping), waiting until a condition holds, and a command run to its end through a
// shell with its output collected.
import type { Shell, ShellExit, ShellRunOptions } from '@deepseek-ai/dsh-shell'

/** The live members of a process group, from /proc (the seam's contract reads it so too). */
export { groupMembers } from '@deepseek-ai/dsh-shell/testing'

export async function waitUntil(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return check()
}

export async function runCollect(
  shell: Shell,
  options: ShellRunOptions,
): Promise<ShellExit & { output: string }> {
  let output = ''
  const exit = await shell.run({ ...options, onOutput: (text) => (output += text) })
  return { ...exit, output }
}
