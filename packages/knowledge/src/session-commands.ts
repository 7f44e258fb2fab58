// The project's knowledge as a session's slash commands: the person's commands (at their rank),
// the skills (below them) and the built-in `/instructions` that lists the instruction files
// loaded, offered to the session's commands (agent.commands) and offered again whenever the
// files change; every skill or command file that is not valid is told once, with its problem.
// How the commands are drawn and run is the client bridge's; how a problem reaches the person,
// the caller's (`warn`). Cordis-free.
import type { SessionCommand, SessionCommands } from '@deepseek-ai/dsh-agent'
import { commandPrompt } from './commands'
import type { PersonCommand } from './commands'
import { instructionsListing } from './instruction-render'
import type { SessionKnowledge } from './session-knowledge'
import { skillBody, skillText } from './skills'
import type { Skill } from './skills'

/** Offers the session's knowledge as commands until the returned function stops it. */
export function offerKnowledgeCommands(
  commands: SessionCommands,
  knowledge: SessionKnowledge,
  warn: (title: string, description: string) => void,
): () => void {
  const told = new Set<string>()
  const publish = () => {
    const { catalog } = knowledge
    commands.offer('knowledge/built-in', 'built-in', [instructionsCommand(knowledge)])
    commands.offer('knowledge/commands', 'person', catalog.commands.map(personCommand))
    commands.offer('knowledge/skills', 'skill', catalog.skills.map(skillCommand))
    for (const { path, problem } of catalog.problems) {
      const key = `${path}\0${problem}`
      if (told.has(key)) continue
      told.add(key)
      warn(
        `${knowledge.show(path)} was skipped: ${problem}.`,
        'Fix the file; it is read again as soon as it changes.',
      )
    }
  }
  publish()
  return knowledge.catalog.onChange(publish)
}

function instructionsCommand(knowledge: SessionKnowledge): SessionCommand {
  return {
    name: 'instructions',
    description: 'List the instruction files (AGENTS.md and kin) loaded in this session',
    run: () => ({
      reply: instructionsListing(knowledge.instructions.loaded(), (path) => knowledge.show(path)),
    }),
  }
}

function personCommand(command: PersonCommand): SessionCommand {
  return {
    name: command.name,
    description: command.description,
    hint: command.hint ?? 'text for $ARGUMENTS',
    origin: command.path,
    run: async (text) => ({ prompt: await commandPrompt(command, text) }),
  }
}

function skillCommand(skill: Skill): SessionCommand {
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
