// knowledge/skill-tool: the `skill` tool, with which a model loads one of its session's skills
// (found by ctx.knowledge), and its prompt section. A function plugin of its own, named
// `tool-skill`, loaded after the service: what it registers goes away when it is disposed.
// The catalog the model chooses from is ctx.knowledge's prompt section.
import type { Context } from 'cordis'
import type {} from '@deepseek-ai/dsh-system-prompt' // for its augmentation: ctx.systemPrompt
import type {} from '@deepseek-ai/dsh-tools' // for its augmentation: ctx.tools
import { createSkillTool, skillPrompt } from './skill'

export const name = 'tool-skill'

export const inject = ['tools', 'systemPrompt', 'knowledge']

export function apply(ctx: Context): void {
  ctx.tools.register(createSkillTool(ctx))
  ctx.systemPrompt.add({ name: 'tool-skill/skill', text: skillPrompt, order: 890 })
}

export { SKILL_ERROR_CODES, SkillError, isSkillError } from './errors'
export type { SkillErrorCode } from './errors'
export { presentSkillCall, presentSkillResult } from './present'
export type { SkillDetails } from './present'
export { skillInput } from './input'
export type { SkillArgs } from './input'
