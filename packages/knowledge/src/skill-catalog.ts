// What the model is shown of the skills it may load, pure: a prompt section listing each
// skill's name and description, capped (CATALOG_LIMITS) so a person with many skills does not
// fill the context; the rest are counted, and their names can still be loaded or run.
import type { Skill } from './skills'

export const CATALOG_LIMITS = { skills: 50, description: 250, chars: 8000 }

/** The catalog section's text; `undefined` when there is no skill. */
export function skillCatalogText(skills: readonly Skill[]): string | undefined {
  if (skills.length === 0) return undefined
  const lines: string[] = []
  let chars = 0
  for (const skill of skills) {
    if (lines.length >= CATALOG_LIMITS.skills) break
    const description =
      skill.description.length <= CATALOG_LIMITS.description
        ? skill.description
        : `${skill.description.slice(0, CATALOG_LIMITS.description - 1)}…`
    const line = `- ${skill.name}: ${description.replace(/\s+/g, ' ')}`
    if (chars + line.length > CATALOG_LIMITS.chars) break
    chars += line.length + 1
    lines.push(line)
  }
  const more = skills.length - lines.length
  if (more > 0) lines.push(`- (${more} more not listed to save context)`)
  return [
    '## Skills available in this session',
    "Skills are instructions for particular tasks, kept by the person or the project. When a task matches a skill's description, load the skill (the `skill` tool, with its name) before you start, and follow it.",
    ...lines,
  ].join('\n')
}
