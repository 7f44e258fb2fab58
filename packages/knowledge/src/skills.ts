// Skills: reusable instructions a person or a project keeps as `<name>/SKILL.md` (front matter
// `name` and `description`, then the body) in `<project root>/.agents/skills`, then
// `$XDG_CONFIG_HOME/dsh/skills` (else `~/.config/dsh/skills`), then `~/.agents/skills`; a name
// found twice is the first place's. A skill that is not valid is left out, with the file and
// its problem, for the person to be told. A project's SKILL.md is read only as a regular file
// whose real path is inside the session's folders (./regular-file): a skill folder or file
// linked out of them is left out, and said so. Cordis-free; reads the disk only.
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { splitFrontMatter } from './front-matter'
import { readRegularText } from './regular-file'

export interface Skill {
  name: string
  description: string
  /** The SKILL.md file (absolute). */
  path: string
  /** The skill's folder: its other files are read with the ordinary tools. */
  folder: string
  /** Where its SKILL.md must really lie to be read (a project's skill); undefined: anywhere. */
  within?: readonly string[]
}

/** Where a place's files must really lie to be read: undefined for the person's own places. */
export type PlaceBounds = (place: string) => readonly string[] | undefined

/** A file that is not a valid skill or command, and why. */
export interface KnowledgeProblem {
  path: string
  problem: string
}

/** The Agent Skills rule for a name: lower-case letters, digits and single hyphens, 1–64. */
const SKILL_NAME = /^[a-z0-9](?:[a-z0-9]|-(?!-)){0,63}$/
export const DESCRIPTION_LIMIT = 1024

/** The skills of `places`, in order (a name found again later is left out). */
export async function findSkills(
  places: readonly string[],
  bounds: PlaceBounds = () => undefined,
): Promise<{ skills: Skill[]; problems: KnowledgeProblem[] }> {
  const skills: Skill[] = []
  const problems: KnowledgeProblem[] = []
  for (const place of places) {
    for (const folder of await subfolders(place)) {
      const path = join(place, folder, 'SKILL.md')
      const found = await readSkill(path, folder, bounds(place))
      if (found === undefined) continue
      if ('problem' in found) problems.push(found)
      else if (!skills.some((skill) => skill.name === found.name)) skills.push(found)
    }
  }
  return { skills, problems }
}

/** The skill at `path` (in the folder `folder`), what is wrong with it, or `undefined` when absent. */
export async function readSkill(
  path: string,
  folder: string,
  within?: readonly string[],
): Promise<Skill | KnowledgeProblem | undefined> {
  const read = await readRegularText(path, within)
  if (!read.ok) return read.reason === 'outside' ? linkedOut(path, read.real) : undefined
  const parsed = await splitFrontMatter(read.text)
  if (!parsed.ok) return { path, problem: parsed.problem }
  const problem = skillProblem(parsed.fields, folder)
  if (problem !== undefined) return { path, problem }
  const fields = parsed.fields as { name: string; description: string }
  return {
    name: fields.name,
    description: fields.description.trim(),
    path,
    folder: join(path, '..'),
    ...(within !== undefined && { within }),
  }
}

/** The problem of a file that links out of the session's folders. */
export function linkedOut(path: string, real: string): KnowledgeProblem {
  return {
    path,
    problem: `it is a link to ${real}, outside the session's folders, so it was not read`,
  }
}

/** The skill's body: its SKILL.md without the front matter, read as it was found. */
export async function skillBody(skill: Skill): Promise<string> {
  const read = await readRegularText(skill.path, skill.within)
  if (!read.ok) {
    const why = read.reason === 'outside' ? linkedOut(skill.path, read.real).problem : 'it is gone'
    throw new Error(`${skill.path} cannot be read: ${why}`)
  }
  const parsed = await splitFrontMatter(read.text)
  if (!parsed.ok) throw new Error(`${skill.path} is no longer a valid skill: ${parsed.problem}`)
  return parsed.body.trim()
}

function skillProblem(
  fields: Record<string, unknown> | undefined,
  folder: string,
): string | undefined {
  if (fields === undefined) {
    return 'it has no front matter: start it with "---", a line "name: <name>", a line "description: <what it is for>", and "---"'
  }
  const { name, description } = fields
  if (typeof name !== 'string' || name === '') return 'its front matter has no "name"'
  if (!SKILL_NAME.test(name)) {
    return `its name "${name}" is not lower-case letters, digits and single hyphens (at most 64)`
  }
  if (name !== folder) return `its name "${name}" is not its folder's name "${folder}"`
  if (typeof description !== 'string' || description.trim() === '') {
    return 'its front matter has no "description"'
  }
  if (description.length > DESCRIPTION_LIMIT) {
    return `its description is longer than ${DESCRIPTION_LIMIT} characters`
  }
  return undefined
}

async function subfolders(place: string): Promise<string[]> {
  try {
    const entries = await readdir(place, { withFileTypes: true })
    return entries
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name)
      .sort()
  } catch {
    return [] // no such place: no skills there
  }
}

/** A skill as the model reads it: its body in a block naming it, and where its other files are. */
export function skillText(skill: Skill, body: string): string {
  return [
    `<skill name="${skill.name}" path="${skill.path}">`,
    body,
    '</skill>',
    `The skill's other files are in ${skill.folder}; read them with the ordinary tools when it names them.`,
  ].join('\n')
}
