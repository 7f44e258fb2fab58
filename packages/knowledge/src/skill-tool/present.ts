// How a skill's loading reads on a card, pure: `Load skill <name>`, kind read, located at its
// SKILL.md (when the session's catalog has it).
import type {
  ToolCallPresentation,
  ToolResultPresentation,
  ToolResultView,
} from '@deepseek-ai/dsh-tools'
import type { SkillArgs } from './input'

/** `details` of a skill call: the file it loaded. */
export interface SkillDetails {
  path: string
}

export function presentSkillCall(args: SkillArgs, path?: string): ToolCallPresentation {
  return {
    title: `Load skill ${args.name}`,
    kind: 'read',
    ...(path !== undefined && { locations: [{ path }] }),
  }
}

export function presentSkillResult(
  args: SkillArgs,
  result: ToolResultView<SkillDetails>,
): ToolResultPresentation | undefined {
  const path = result.details?.path
  if (result.isError || path === undefined) return undefined
  return { title: `Load skill ${args.name}`, locations: [{ path }] }
}
