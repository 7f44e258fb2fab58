// A reference for the edit tests: the whole text after a planned edit, spliced as strings.
// Providers never build it (they write the edited file as byte pieces); the tests compare
// both ways of applying one plan, and read the plan's line and excerpt beside the text.
import { planTextEdit } from '../../src/edit'
import type { TextEditPlan } from '../../src/edit'
import type { FsEditRequest } from '../../src/types'

export function applyTextEdit(
  text: string,
  request: FsEditRequest,
  path?: string,
): TextEditPlan & { text: string } {
  const plan = planTextEdit(text, request, path)
  let after = ''
  let cursor = 0
  for (const match of plan.matches) {
    after += text.slice(cursor, match.start) + match.replacement
    cursor = match.end
  }
  return { ...plan, text: after + text.slice(cursor) }
}
