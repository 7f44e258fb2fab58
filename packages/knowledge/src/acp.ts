// The project's knowledge in an ACP session (`@deepseek-ai/dsh-knowledge/acp`): when a session
// opens, its skills and the person's commands are offered as slash commands (the person's at
// their rank, skills below them), with the built-in `/instructions` that lists the instruction
// files loaded; they are offered again whenever the files change; and every skill or command
// file that is not valid is named to the person in a notice, with its problem, once.
// The bridge ranks the names and runs the commands (acp's session-commands).
import type { AcpCommand, AcpSessionOpening } from '@deepseek-ai/dsh-acp'
import type { Context } from 'cordis'
import type {} from './index' // for its augmentation: ctx.knowledge
import { commandPrompt } from './commands'
import type { PersonCommand } from './commands'
import { instructionsListing } from './instruction-render'
import type { SessionKnowledge } from './session-knowledge'
import { skillBody, skillText } from './skills'
import type { Skill } from './skills'

export const name = 'knowledge-acp'

export const inject = ['knowledge', 'acp']

export function apply(ctx: Context): void {
  ctx.on('acp/session-open', (session) => {
    void ctx.knowledge.session(session.agent).then(
      (knowledge) => offer(session, knowledge),
      (error: unknown) =>
        session.notify({
          title: "The project's skills and commands could not be read.",
          description: error instanceof Error ? error.message : String(error),
          severity: 'warning',
        }),
    )
  })
}

function offer(session: AcpSessionOpening, knowledge: SessionKnowledge): void {
  const told = new Set<string>()
  const publish = () => {
    const { catalog } = knowledge
    session.commands.offer('knowledge/built-in', 'built-in', [instructionsCommand(knowledge)])
    session.commands.offer('knowledge/commands', 'person', catalog.commands.map(personCommand))
    session.commands.offer('knowledge/skills', 'skill', catalog.skills.map(skillCommand))
    for (const { path, problem } of catalog.problems) {
      const key = `${path}\0${problem}`
      if (told.has(key)) continue
      told.add(key)
      session.notify({
        title: `${knowledge.show(path)} was skipped: ${problem}.`,
        description: 'Fix the file; it is read again as soon as it changes.',
        severity: 'warning',
      })
    }
  }
  publish()
  session.onClose(knowledge.catalog.onChange(publish))
}

function instructionsCommand(knowledge: SessionKnowledge): AcpCommand {
  return {
    name: 'instructions',
    description: 'List the instruction files (AGENTS.md and kin) loaded in this session',
    run: () => ({
      reply: instructionsListing(knowledge.instructions.loaded(), (path) => knowledge.show(path)),
    }),
  }
}

function personCommand(command: PersonCommand): AcpCommand {
  return {
    name: command.name,
    description: command.description,
    hint: command.hint ?? 'text for $ARGUMENTS',
    origin: command.path,
    run: async (text) => ({ prompt: await commandPrompt(command, text) }),
  }
}

function skillCommand(skill: Skill): AcpCommand {
  return {
    name: skill.name,
    description: skill.description,
    hint: 'what to do with the skill (optional)',
    origin: skill.path,
    run: async (text) => ({ prompt: skillPrompt(skill, await skillBody(skill), text) }),
  }
}

/** The message `/<skill> text` sends: the skill, then the person's text. */
export function skillPrompt(skill: Skill, body: string, text: string): string {
  const ask = text === '' ? "Follow the skill's instructions." : text
  return `The person runs the skill "${skill.name}".\n${skillText(skill, body)}\n\n${ask}`
}
