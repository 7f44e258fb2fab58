// The person's own slash commands: each Markdown file `<name>.md` in
// `<project root>/.agents/commands/`, then `$XDG_CONFIG_HOME/dsh/commands/` (else
// `~/.config/dsh/commands/`). Its text is the prompt, with every `$ARGUMENTS` replaced by
// what follows the command (appended when the text has none); an optional front matter gives
// a `description` and an `argument-hint`. A project's command file is read only as a regular
// file whose real path is inside the session's folders (./regular-file). Cordis-free.
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { splitFrontMatter } from './front-matter'
import { readRegularText } from './regular-file'
import { linkedOut } from './skills'
import type { KnowledgeProblem, PlaceBounds } from './skills'

export interface PersonCommand {
  name: string
  description: string
  hint?: string
  /** The file (absolute). */
  path: string
  /** Where the file must really lie to be read (a project's command); undefined: anywhere. */
  within?: readonly string[]
}

const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/
const DESCRIPTION_CHARS = 120

/** The commands of `places`, in order; a name found again later is listed too (it is shadowed). */
export async function findCommands(
  places: readonly string[],
  bounds: PlaceBounds = () => undefined,
): Promise<{ commands: PersonCommand[]; problems: KnowledgeProblem[] }> {
  const commands: PersonCommand[] = []
  const problems: KnowledgeProblem[] = []
  for (const place of places) {
    for (const file of await markdownFiles(place)) {
      const path = join(place, file)
      const name = file.slice(0, -'.md'.length)
      if (!COMMAND_NAME.test(name)) {
        problems.push({
          path,
          problem: `"${name}" cannot be a command name: use letters, digits, ".", "_" and "-"`,
        })
        continue
      }
      const found = await readCommand(path, name, bounds(place))
      if (found === undefined) continue
      if ('problem' in found) problems.push(found)
      else commands.push(found)
    }
  }
  return { commands, problems }
}

async function readCommand(
  path: string,
  name: string,
  within: readonly string[] | undefined,
): Promise<PersonCommand | KnowledgeProblem | undefined> {
  const read = await readRegularText(path, within)
  if (!read.ok) return read.reason === 'outside' ? linkedOut(path, read.real) : undefined
  const parsed = await splitFrontMatter(read.text)
  if (!parsed.ok) return { path, problem: parsed.problem }
  const { description, 'argument-hint': hint } = parsed.fields ?? {}
  return {
    name,
    description:
      typeof description === 'string' && description.trim() !== ''
        ? description.trim()
        : firstLine(parsed.body),
    ...(typeof hint === 'string' && hint !== '' && { hint }),
    path,
    ...(within !== undefined && { within }),
  }
}

/** The prompt a command makes: its body, `$ARGUMENTS` replaced by `text` (appended when absent). */
export async function commandPrompt(command: PersonCommand, text: string): Promise<string> {
  const read = await readRegularText(command.path, command.within)
  if (!read.ok) {
    const why =
      read.reason === 'outside' ? linkedOut(command.path, read.real).problem : 'it is gone'
    throw new Error(`${command.path} cannot be read: ${why}`)
  }
  const parsed = await splitFrontMatter(read.text)
  if (!parsed.ok) throw new Error(`${command.path}: ${parsed.problem}`)
  const body = parsed.body.trim()
  if (body.includes('$ARGUMENTS')) return body.replaceAll('$ARGUMENTS', text)
  return text === '' ? body : `${body}\n\n${text}`
}

function firstLine(body: string): string {
  const line =
    body
      .split('\n')
      .find((candidate) => candidate.trim() !== '')
      ?.trim() ?? 'A command of yours'
  const plain = line.replace(/^#+\s*/, '')
  return plain.length <= DESCRIPTION_CHARS ? plain : `${plain.slice(0, DESCRIPTION_CHARS - 1)}…`
}

async function markdownFiles(place: string): Promise<string[]> {
  try {
    const entries = await readdir(place, { withFileTypes: true })
    return entries
      .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith('.md'))
      .map((entry) => entry.name)
      .sort()
  } catch {
    return [] // no such place: no commands there
  }
}
