// The inputs of the `write` and `edit` tools: their schemas (what the model sees) and argument
// types, shared by the tools and by their previews (./preview), which must not import the tools.
import { z } from 'zod'
import { filePathInput } from './input'

export const writeInput = z.object({
  file_path: filePathInput(
    'The file to write: an absolute path, or a path relative to the workspace.',
  ),
  content: z.string().describe('The whole new content of the file.'),
})

export type WriteArgs = z.infer<typeof writeInput>

export const editInput = z.object({
  file_path: filePathInput(
    'The file to edit: an absolute path, or a path relative to the workspace.',
  ),
  old_string: z
    .string()
    .describe('The exact text to replace, as in the file (whitespace included, no line numbers).'),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence (default false: old_string must occur exactly once).'),
})

export type EditArgs = z.infer<typeof editInput>
