// Small tools of every kind the table groups, each presenting the file it touches as its
// location. A probe records which tools ran and can make the edit tool's preview reject.
import { z } from 'zod'
import { defineTool } from '@deepseek-ai/dsh-tools'
import type ToolRegistry from '@deepseek-ai/dsh-tools'
import type { ToolDefinition, ToolEffect, ToolKind } from '@deepseek-ai/dsh-tools'

export interface ToolProbe {
  /** Names of the tools whose `execute` ran, in order. */
  ran: string[]
  /** When set, the edit tool's preview rejects with it. */
  previewFailure?: unknown
}

const fileInput = z.object({ file_path: z.string(), line: z.number().int().positive().optional() })

type FileTool = ToolDefinition<typeof fileInput>

/** Name, the kind its card draws, and the effect its access hook declares (none: no hook). */
const FILE_TOOLS: [string, ToolKind, ToolEffect?][] = [
  ['read', 'read'],
  ['grep', 'search'],
  ['delete', 'delete'],
  ['move', 'move'],
  ['run', 'execute'],
  ['plan', 'think', 'none'],
  ['note', 'think', 'write'],
]

function fileTool(probe: ToolProbe, name: string, kind: ToolKind, effect?: ToolEffect): FileTool {
  return defineTool({
    name,
    description: `A ${kind} tool.`,
    input: fileInput,
    async execute() {
      probe.ran.push(name)
      return `${name} done`
    },
    presentCall: (args) => ({
      title: `${name} ${args.file_path}`,
      kind,
      locations: [
        { path: args.file_path, ...(args.line === undefined ? {} : { line: args.line }) },
      ],
    }),
    ...(effect !== undefined && { access: () => ({ effect }) }),
  })
}

function editTool(probe: ToolProbe): FileTool {
  return {
    ...fileTool(probe, 'edit', 'edit'),
    async preview(args) {
      if (probe.previewFailure !== undefined) throw probe.previewFailure
      return [{ type: 'diff', path: args.file_path, oldText: 'old', newText: 'new' }]
    },
  }
}

function bareTool(probe: ToolProbe): FileTool {
  return defineTool({
    name: 'bare',
    description: 'A tool with no presentation.',
    input: fileInput,
    async execute() {
      probe.ran.push('bare')
      return 'bare done'
    },
  })
}

function readManyTool(probe: ToolProbe) {
  return defineTool({
    name: 'read_many',
    description: 'Reads several files.',
    input: z.object({ paths: z.array(z.string()) }),
    async execute() {
      probe.ran.push('read_many')
      return 'read_many done'
    },
    presentCall: (args) => ({
      title: `read ${args.paths.join(', ')}`,
      kind: 'read',
      locations: args.paths.map((path) => ({ path })),
    }),
  })
}

/**
 * `classified`: an execute-kind tool that judges itself through `access` from its arguments,
 * the way a command tool would (`effect`, `scope`, always-allow `keys`, `askAlways`,
 * `confined`; `throws` makes the hook break its contract).
 */
function classifiedTool(probe: ToolProbe) {
  return defineTool({
    name: 'classified',
    description: 'A tool that classifies its own calls.',
    input: z.object({
      command: z.string(),
      effect: z.enum(['none', 'read', 'write', 'execute', 'network']).optional(),
      scope: z.array(z.string()).optional(),
      keys: z.array(z.string()).optional(),
      askAlways: z.boolean().optional(),
      confined: z.enum(['workspace', 'read-only']).optional(),
      throws: z.boolean().optional(),
    }),
    async execute() {
      probe.ran.push('classified')
      return 'classified done'
    },
    presentCall: (args) => ({ title: args.command, kind: 'execute' }),
    access(args) {
      if (args.throws === true) throw new Error('broken hook')
      return {
        ...(args.effect === undefined ? {} : { effect: args.effect }),
        ...(args.scope === undefined ? {} : { scope: args.scope }),
        ...(args.keys === undefined
          ? {}
          : { always: { keys: args.keys, label: `${args.keys.join(', ')} commands` } }),
        ...(args.askAlways === undefined ? {} : { askAlways: args.askAlways }),
        ...(args.confined === undefined ? {} : { confined: args.confined }),
      }
    },
  })
}

/**
 * Registers read (read), grep (search), edit (edit, with a preview), delete, move, run (execute),
 * plan (drawn think, effect none), note (drawn think, effect write), bare, read_many and classified.
 */
export function registerProbeTools(registry: ToolRegistry, probe: ToolProbe): void {
  registry.register(classifiedTool(probe))
  for (const [name, kind, effect] of FILE_TOOLS) {
    registry.register(fileTool(probe, name, kind, effect))
  }
  registry.register(editTool(probe))
  registry.register(bareTool(probe))
  registry.register(readManyTool(probe))
}
