// A command that needs the network, about to run in a sandbox without it, is not run: it would
// only wait on name resolution and retry for minutes (`npm install` until the timeout, `pnpm
// add` for 71 s), so the call fails at once, saying why and how to run it outside the sandbox
// (`escalate`, which the person is asked about). Failing fast rather than asking up front: the
// need is a guess from the command's words (`git fetch` from a local remote needs none), the
// model may choose another way, and the escalation it sends carries its reason to the person.
import type { Shell } from '@deepseek-ai/dsh-shell'
import type { ShellConfinement } from '@deepseek-ai/dsh-shell'
import { classifyCommand } from '@deepseek-ai/dsh-shell-policy'
import type { BashDetails } from './input'

export async function offlineRefusal(
  shell: Pick<Shell, 'confinement'>,
  command: string,
  confine: ShellConfinement | undefined,
) {
  if (confine === undefined || confine.network) return undefined
  if (shell.confinement(confine) === undefined) return undefined
  const classified = await classifyCommand(command)
  const needing = classified.parsed
    ? classified.parts.find((part) => part.network === true)
    : undefined
  if (needing === undefined) return undefined
  const words = 'Not run: it needs the network, and the sandbox it would run in has none'
  const content =
    `Not run: \`${needing.text}\` needs the network, and the sandbox this command would run in ` +
    'has none (it would only wait and retry). If it must reach the network, run it again with ' +
    '`escalate: true` and a `justification`; the person will be asked.'
  const details: BashDetails = {
    kind: 'command',
    output: '',
    ending: content,
    exitCode: null,
    signal: null,
    words,
  }
  return { content, details, isError: true }
}
