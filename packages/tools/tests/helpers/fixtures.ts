// Shared test fixtures: a root context with the registry, and a small typed tool.
import { Context } from 'cordis'
import { z } from 'zod'
import ToolRegistry, { defineTool } from '../../src/index'

export async function makeContext(): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(ToolRegistry)
  return ctx
}

export const readLike = defineTool({
  name: 'read',
  description: 'Reads a file.',
  input: z.object({
    file_path: z.string().describe('Absolute path of the file.'),
    offset: z.number().int().positive().optional(),
    limit: z.number().int().positive().max(2000).optional(),
  }),
  async execute(args) {
    return `read ${args.file_path} from ${args.offset ?? 1}`
  },
})

/** A plugin that registers the given tools, so disposal can be tested through its fiber. */
export function registering(...tools: Parameters<ToolRegistry['register']>[0][]) {
  return {
    name: 'registering',
    inject: ['tools'],
    apply(ctx: Context) {
      for (const tool of tools) ctx.tools.register(tool)
    },
  }
}

/** An error of a tool's own, with a string code the registry reports (not a ToolError code). */
export class CodedError extends Error {
  override readonly name = 'CodedError'

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}
