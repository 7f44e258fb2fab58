// Project delegate types: `<project root>/.agents/agents/<name>.md`, read when a task names a
// type (so an edit applies at the next task). A file is front matter between `---` lines
// (`name`, `description`, optional `tools`: the tools its delegate may call, as `[a, b]` or
// `- a` lines) and a body, the delegate's prompt. A file that does not hold together is
// skipped, with its problem, for the caller to tell the person. Plain `key: value` lines
// only: no other YAML.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { TASK_TYPES } from './input'

export interface ProjectType {
  name: string
  description: string
  /** The tools its delegate may call; absent: every tool the session has. */
  tools?: string[]
  prompt: string
}

export interface ProjectTypes {
  types: ProjectType[]
  /** Each skipped file (its path) and what is wrong with it. */
  skipped: { file: string; problem: string }[]
}

const NAME = /^[a-z0-9][a-z0-9_-]*$/

/** The project types under `root`; none when it has no `.agents/agents` folder. */
export async function loadProjectTypes(root: string): Promise<ProjectTypes> {
  const dir = join(root, '.agents', 'agents')
  let names: string[]
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.md')).sort()
  } catch {
    return { types: [], skipped: [] }
  }
  const result: ProjectTypes = { types: [], skipped: [] }
  for (const entry of names) {
    const file = join(dir, entry)
    try {
      const type = parseProjectType(await readFile(file, 'utf8'))
      if (result.types.some((known) => known.name === type.name)) {
        throw new Error(`another file already defines the type "${type.name}"`)
      }
      result.types.push(type)
    } catch (error) {
      result.skipped.push({ file, problem: error instanceof Error ? error.message : String(error) })
    }
  }
  return result
}

/** One type file's text as a type; throws saying what is wrong. */
export function parseProjectType(text: string): ProjectType {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  if (lines[0]?.trim() !== '---')
    throw new Error('it does not start with a `---` front matter line')
  const close = lines.indexOf('---', 1)
  if (close < 0) throw new Error('its front matter has no closing `---` line')
  const fields = frontMatterOf(lines.slice(1, close))
  const name = fields.get('name')
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new Error('`name` must be lowercase letters, digits, `-` or `_`')
  }
  if ((TASK_TYPES as readonly string[]).includes(name)) {
    throw new Error(`"${name}" is a built-in type; choose another name`)
  }
  const description = fields.get('description')
  if (typeof description !== 'string' || description === '') {
    throw new Error('`description` is missing')
  }
  const tools = fields.get('tools')
  if (typeof tools === 'string') throw new Error('`tools` must be a list, e.g. `[read, grep]`')
  const prompt = lines
    .slice(close + 1)
    .join('\n')
    .trim()
  if (prompt === '') throw new Error('its body (the delegate prompt) is empty')
  return { name, description, ...(tools !== undefined && { tools }), prompt }
}

function frontMatterOf(lines: string[]): Map<string, string | string[]> {
  const fields = new Map<string, string | string[]>()
  let list: string[] | undefined
  for (const [index, raw] of lines.entries()) {
    const line = raw.trimEnd()
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue
    const item = /^\s+-\s+(.+)$/.exec(line)
    if (item && list) {
      list.push(unquoted(item[1]!))
      continue
    }
    const field = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line)
    if (!field) throw new Error(`front matter line ${index + 2} is not \`key: value\``)
    const [, key, value] = field as unknown as [string, string, string]
    list = undefined
    if (value === '') fields.set(key, (list = []))
    else if (value.startsWith('[') && value.endsWith(']')) {
      const inner = value.slice(1, -1).trim()
      fields.set(key, inner === '' ? [] : inner.split(',').map((part) => unquoted(part)))
    } else fields.set(key, unquoted(value))
  }
  return fields
}

function unquoted(value: string): string {
  const text = value.trim()
  const quoted = /^(["'])(.*)\1$/.exec(text)
  return quoted ? quoted[2]! : text
}
