// The grep tool's arguments, as the model sees them, and the ripgrep flags they become.
import { z } from 'zod'
import { BASE_ARGS } from './search'

export const OUTPUT_MODES = ['files_with_matches', 'content', 'count'] as const
export const DEFAULT_HEAD_LIMIT = 250
export const MAX_CONTEXT = 20
/** ripgrep prints at most this many bytes of a line (then a note): ≥ 2,000 UTF-16 units. */
const MAX_COLUMNS = '8000'

export const grepInput = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      "A regular expression in ripgrep's syntax (Rust regex: escape literal ( ) [ ] { } . * + ? | with a backslash), or literal text with fixed_strings.",
    ),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('A file or directory to search (default: the workspace).'),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Only files whose path matches this glob: "*.ts" (file names at any depth), "src/**/*.{js,jsx}" (paths under path).',
    ),
  output_mode: z
    .enum(OUTPUT_MODES)
    .optional()
    .describe(
      'files_with_matches (default): the paths of matching files; content: path:line:text for each matching line; count: path:N per file.',
    ),
  case_insensitive: z.boolean().optional().describe('Ignore case (default false).'),
  context: z
    .number()
    .int()
    .min(0)
    .max(MAX_CONTEXT)
    .optional()
    .describe('content mode: lines shown before and after each match (0-20).'),
  head_limit: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(`The most result lines (default ${DEFAULT_HEAD_LIMIT}; 0: no line limit).`),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Result lines to skip first, to page (default 0).'),
  multiline: z
    .boolean()
    .optional()
    .describe('Let the pattern span lines; . then matches newlines too (default false).'),
  fixed_strings: z
    .boolean()
    .optional()
    .describe('Search the pattern as literal text, not a regular expression (default false).'),
})

export type GrepArgs = z.infer<typeof grepInput>
export type GrepOutputMode = (typeof OUTPUT_MODES)[number]

/** The ripgrep flags of a grep call (the root comes after them). */
export function grepFlags(args: GrepArgs): string[] {
  const flags = [...BASE_ARGS, '--sort', 'path']
  if (args.case_insensitive) flags.push('--ignore-case')
  if (args.fixed_strings) flags.push('--fixed-strings')
  if (args.multiline) flags.push('--multiline', '--multiline-dotall')
  switch (args.output_mode ?? 'files_with_matches') {
    case 'files_with_matches':
      flags.push('--files-with-matches')
      break
    case 'count':
      flags.push('--count')
      break
    case 'content':
      flags.push(...lineFlags())
      if (args.context) flags.push('--context', String(args.context))
      break
  }
  flags.push('--regexp', args.pattern)
  return flags
}

/** Line output: `path\0N:text` with the line cut by ripgrep past MAX_COLUMNS bytes. */
export function lineFlags(): string[] {
  return [
    '--line-number',
    '--with-filename',
    '--no-heading',
    '--max-columns',
    MAX_COLUMNS,
    '--max-columns-preview',
  ]
}
