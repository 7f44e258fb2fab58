// The `echo` test tool and small log helpers shared by the loop tests.
import { defineTool } from '@deepseek-ai/dsh-tools'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import type { Context } from 'cordis'
import { z } from 'zod'
import type { SessionEvent } from '../../src'
import { createHost } from './host'
import type { Host, HostOptions } from './host'

/** The echo tool's own coded error; the registry reports its name and code. */
class EchoError extends Error {
  override readonly name = 'EchoError'
  readonly code = 'ECHO_FAILED'
}

/** A host with an `echo` tool that records each execution. */
export async function echoHost(
  hosts: Host[],
  options: HostOptions,
): Promise<Host & { calls: ToolExecution[] }> {
  const host = await createHost(options)
  hosts.push(host)
  const calls: ToolExecution[] = []
  registerEcho(host.ctx, calls)
  return { ...host, calls }
}

function registerEcho(ctx: Context, calls: ToolExecution[]): void {
  ctx.tools.register(
    defineTool({
      name: 'echo',
      description: 'Repeats the text.',
      input: z.object({ text: z.string() }),
      async execute(args, exec) {
        calls.push(exec)
        if (args.text === 'fail') throw new EchoError('echo was told to fail')
        return { content: `echo: ${args.text}`, details: { length: args.text.length } }
      },
    }),
  )
}

export function ofType<T extends SessionEvent['type']>(events: readonly SessionEvent[], type: T) {
  return events.filter((event): event is Extract<SessionEvent, { type: T }> => event.type === type)
}

export const echoCall = (id: string, text: string) => ({ id, name: 'echo', arguments: { text } })
