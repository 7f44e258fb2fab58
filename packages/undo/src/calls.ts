// Which calls an undo brackets: those whose effect (the tool's access hook, else its card's
// kind, as the permission gate judges them) is `write` or `execute` — file tools, commands,
// MCP tools, a delegate's calls. A file tool's file is named, for the record kept without git.
import { randomUUID } from 'node:crypto'
import { resolve } from 'node:path'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { callEffect } from '@deepseek-ai/dsh-tools'
import type ToolRegistry from '@deepseek-ai/dsh-tools'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'

/** The file tools whose `file_path` the record without git keeps. */
const FILE_TOOLS = new Set(['write', 'edit'])

export interface CallChange {
  /** The call may change files. */
  may: boolean
  /** The file a file tool names (absolute). */
  file?: string
}

export async function changeOf(
  tools: ToolRegistry,
  exec: ToolExecution,
  cwd: string,
  rootId: string,
): Promise<CallChange> {
  const presentation = tools.presentCall(exec.name, exec.arguments, { cwd, session: rootId })
  const hook = tools.get(exec.name, rootId)?.access
  const access = hook === undefined ? undefined : await tools.access(exec)
  const effect = callEffect(access, presentation?.kind)
  if (effect !== 'write' && effect !== 'execute') return { may: false }
  const path = (exec.arguments as { file_path?: unknown } | undefined)?.file_path
  if (!FILE_TOOLS.has(exec.name) || typeof path !== 'string') return { may: true }
  return { may: true, file: resolve(cwd, path) }
}

/** Asks the person (the session's ask channel) whether to overwrite files changed since. */
export async function askOverwrite(agent: Agent, paths: readonly string[]): Promise<boolean> {
  const ask = agent.session.scope.channels.ask
  if (ask === undefined) return false
  const count = paths.length === 1 ? 'a file' : `${paths.length} files`
  const answer = await ask({
    exec: {
      callId: `undo-${randomUUID()}`,
      name: 'undo',
      arguments: { paths },
      session: agent.session,
    },
    presentation: {
      title: `Undo: ${count} changed since the turn`,
      kind: 'edit',
      locations: paths.map((path) => ({ path })),
    },
    preview: [
      {
        type: 'text',
        text: `Changed since the turn (by you or another program):\n${paths.map((p) => `- ${p}`).join('\n')}\nPut them back as well, losing those changes?`,
      },
    ],
    options: [
      { optionId: 'overwrite', kind: 'allow_once', name: 'Put them back too' },
      { optionId: 'keep', kind: 'reject_once', name: 'Keep them as they are' },
    ],
  })
  return answer.outcome === 'selected' && answer.optionId === 'overwrite'
}
