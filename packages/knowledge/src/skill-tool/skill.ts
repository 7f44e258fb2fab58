// The `skill` tool: the model loads one skill of its session's catalog (ctx.knowledge) and gets
// its instructions and where its other files lie. Judged as a read of the SKILL.md: a project's
// skill (inside the roots) runs unasked, the person's own (outside) as any read outside does.
import type { Context } from 'cordis'
import type {} from '../index' // for its augmentation: ctx.knowledge
import { skillBody, skillText } from '../skills'
import { defineTool, untraced } from '@deepseek-ai/dsh-tools'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { SkillError } from './errors'
import { skillInput } from './input'
import type { SkillArgs } from './input'
import { presentSkillCall, presentSkillResult } from './present'
import type { SkillDetails } from './present'

export const skillPrompt = `## Skills (skill)
- When the person's task matches a skill in the catalog, call \`skill\` with its name before you start, and follow what it says. Load a skill once a session; it stays in the conversation.
- A skill may name other files in its folder: read them with \`read\` when you need them.`

export function createSkillTool(ctx: Context) {
  const skillOf = (args: SkillArgs, exec: ToolExecution) => {
    const session = exec.session.header.id
    const knowledge = untraced(ctx.knowledge)
    const skill = session === undefined ? undefined : knowledge.skill(session, args.name)
    if (skill !== undefined) return skill
    const names = session === undefined ? [] : knowledge.skills(session).map((s) => s.name)
    const list =
      names.length > 0 ? `The skills are: ${names.join(', ')}.` : 'This session has no skills.'
    throw new SkillError('SKILL_NOT_FOUND', `No skill is named "${args.name}". ${list}`)
  }
  return defineTool<typeof skillInput, SkillDetails>({
    name: 'skill',
    description:
      "Load one of the session's skills (listed under Skills available in this session) by name: its instructions, and the folder its other files are in.",
    input: skillInput,
    execute: async (args, exec) => {
      const skill = skillOf(args, exec)
      let body: string
      try {
        body = await skillBody(skill)
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error)
        throw new SkillError(
          'SKILL_UNREADABLE',
          `The skill "${args.name}" could not be read: ${why}`,
        )
      }
      return { content: skillText(skill, body), details: { path: skill.path } }
    },
    presentCall: (args, view) => {
      const session = view?.session
      const skill =
        session === undefined ? undefined : untraced(ctx.knowledge).skill(session, args.name)
      return presentSkillCall(args, skill?.path)
    },
    presentResult: presentSkillResult,
    access: (args, exec) => {
      const session = exec.session.header.id
      const skill =
        session === undefined ? undefined : untraced(ctx.knowledge).skill(session, args.name)
      // An unknown name reads nothing: it fails without asking anyone.
      return {
        effect: 'read',
        access: 'read',
        scope: skill === undefined ? [exec.session.header.cwd ?? '/'] : [skill.path],
      }
    },
  })
}
