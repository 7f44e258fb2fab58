// ctx.knowledge: what dsh knows of each session's project — its instruction files (AGENTS.md
// and kin) sent to the model as the project's words, more as tool calls reach deeper folders;
// its skills, listed to the model; the person's commands. A service over the Cordis-free
// modules beside it: it adds a context source to the agent host (the instruction notes), follows
// tool calls through `tools/execute` (the paths they reached), and adds each session's skills
// catalog as a prompt section of its own. Its slash commands: ./session-commands.
import { Service } from 'cordis'
import type { Context } from 'cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type {} from '@deepseek-ai/dsh-system-prompt' // for its augmentation: ctx.systemPrompt
import { untraced } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import { knowledgeHomeOf } from './paths'
import type { KnowledgeHome } from './paths'
import { INSTRUCTIONS_SOURCE, SessionKnowledge } from './session-knowledge'
import type { Skill } from './skills'

declare module 'cordis' {
  interface Context {
    knowledge: Knowledge
  }
}

export const Config = z
  .object({
    /** The person's home folder; default `HOME`. */
    home: z.string().min(1).optional(),
    /** Where the person's configuration lies (dsh's is its `dsh/`); default `XDG_CONFIG_HOME`, else `~/.config`. */
    configHome: z.string().min(1).optional(),
  })
  .prefault({})

export type KnowledgeConfig = z.input<typeof Config>

export default class Knowledge extends Service {
  static inject = ['agents', 'tools', 'systemPrompt']
  static Config = Config

  readonly home: KnowledgeHome
  private readonly opening = new Map<string, Promise<SessionKnowledge>>()
  private readonly open = new Map<string, SessionKnowledge>()
  private readonly catalogs = new Map<string, () => void>()

  constructor(ctx: Context, config: KnowledgeConfig = {}) {
    super(ctx, 'knowledge')
    const env = {
      ...process.env,
      ...(config.home !== undefined && { HOME: config.home }),
      ...(config.configHome !== undefined && { XDG_CONFIG_HOME: config.configHome }),
    }
    this.home = knowledgeHomeOf(env)
    ctx.agents.addContextSource({
      name: INSTRUCTIONS_SOURCE,
      notes: async (agent) => (await this.session(agent)).instructions.notes(),
      carried: (agent) => this.open.get(agent.session.header.id)?.instructions.carried(),
    })
    ctx.on('tools/execute', async (exec, next) => {
      const result = await next()
      if (!result.isError) this.reached(exec)
      return result
    })
    ctx.effect(() => () => this.closeAll(), 'knowledge sessions')
  }

  /** The session's knowledge, opened on first use and closed when its agent is released. */
  session(agent: Agent): Promise<SessionKnowledge> {
    const self = untraced(this)
    const id = agent.session.header.id
    const known = self.opening.get(id)
    if (known !== undefined) return known
    const opening = SessionKnowledge.open(agent, {
      home: self.home,
      setCatalog: (session, text) => self.setCatalog(session, text),
    })
    self.opening.set(id, opening)
    void opening.then((knowledge) => {
      self.open.set(id, knowledge)
      const close = () => {
        self.opening.delete(id)
        self.open.delete(id)
        knowledge.close()
      }
      if (agent.lifetime.aborted) close()
      else agent.lifetime.addEventListener('abort', close, { once: true })
    })
    return opening
  }

  /** The skill `name` of live session `session`, if it has one. */
  skill(session: string, name: string): Skill | undefined {
    return untraced(this).open.get(session)?.catalog.skill(name)
  }

  /** The skills of live session `session` (none before it opened). */
  skills(session: string): readonly Skill[] {
    return untraced(this).open.get(session)?.catalog.skills ?? []
  }

  /** The paths a call that succeeded reached: deeper folders' instruction files are added. */
  private reached(exec: ToolExecution): void {
    const { cwd, id } = exec.session.header
    const knowledge = untraced(this).open.get(id)
    if (knowledge === undefined) return
    const tools = untraced(this.ctx.tools)
    const located = tools.presentCall(exec.name, exec.arguments, { cwd, session: id })?.locations
    const paths = (located ?? []).map((location) => location.path)
    knowledge.instructions.discover(
      tools.access(exec).then((access) => [...(access?.scope ?? []), ...paths]),
    )
  }

  private setCatalog(session: string, text: string | undefined): void {
    this.catalogs.get(session)?.()
    this.catalogs.delete(session)
    if (text === undefined) return
    const section = { name: 'knowledge/skills', text, order: 900 }
    this.catalogs.set(session, this.ctx.systemPrompt.add(section, { session }))
  }

  private closeAll(): void {
    for (const knowledge of this.open.values()) knowledge.close()
    this.open.clear()
    this.opening.clear()
  }
}

export { FILE_LIMIT, TOTAL_LIMIT } from './instruction-render'
export { INSTRUCTION_FILE_NAMES } from './instruction-files'
export { CATALOG_LIMITS } from './skill-catalog'
export { INSTRUCTIONS_SOURCE, SessionKnowledge } from './session-knowledge'
export { commandPrompt } from './commands'
export { offerKnowledgeCommands, skillPrompt } from './session-commands'
export type { PersonCommand } from './commands'
export { skillBody, skillText } from './skills'
export type { KnowledgeProblem, Skill } from './skills'
export type { KnowledgeHome } from './paths'
