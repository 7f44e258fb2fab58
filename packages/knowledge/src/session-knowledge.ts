// One session's knowledge of its project: its instruction files as they are sent
// (./instruction-tracker, rebuilt from the notes a loaded session logged) and its project's
// skills and commands (./project-catalog), with the skills' catalog as a prompt section of the
// session's own. Opened once per session, closed when its agent is released.
import type { Agent } from '@deepseek-ai/dsh-agent'
import { InstructionTracker } from './instruction-tracker'
import type { InstructionNoteData } from './instruction-tracker'
import { displayPath, isIgnoredFolder, projectRootOf } from './paths'
import type { KnowledgeHome } from './paths'
import { ProjectCatalog, catalogPlaces } from './project-catalog'
import { skillCatalogText } from './skill-catalog'
import { join } from 'node:path'

/** The name the instruction notes carry in the log. */
export const INSTRUCTIONS_SOURCE = 'instructions'

export interface SessionKnowledgeHost {
  home: KnowledgeHome
  /** Sets the session's skills catalog section (`undefined`: none). */
  setCatalog(session: string, text: string | undefined): void
}

export class SessionKnowledge {
  readonly instructions: InstructionTracker
  readonly catalog: ProjectCatalog
  readonly root: string
  private readonly stopCatalog: () => void

  private constructor(
    readonly agent: Agent,
    root: string,
    private readonly host: SessionKnowledgeHost,
  ) {
    const { header } = agent.session
    const { home } = host
    this.root = root
    const added = header.roots.slice(1).filter((folder) => !isIgnoredFolder(folder))
    this.instructions = new InstructionTracker({
      root,
      cwd: header.cwd,
      added,
      global: join(home.config, 'AGENTS.md'),
      show: (path) => displayPath(path, header.cwd, home.home),
    })
    this.instructions.restore(notesOf(agent))
    this.catalog = new ProjectCatalog(catalogPlaces(root, home, [root, header.cwd, ...added]))
    const id = header.id
    const publish = () => host.setCatalog(id, skillCatalogText(this.catalog.skills))
    void this.catalog.ready.then(publish)
    this.stopCatalog = this.catalog.onChange(publish)
  }

  static async open(agent: Agent, host: SessionKnowledgeHost): Promise<SessionKnowledge> {
    const root = await projectRootOf(agent.session.header.cwd)
    const knowledge = new SessionKnowledge(agent, root, host)
    await knowledge.catalog.ready
    return knowledge
  }

  /** How a path reads for the person of this session. */
  show(path: string): string {
    return displayPath(path, this.agent.session.header.cwd, this.host.home.home)
  }

  close(): void {
    this.stopCatalog()
    this.catalog.close()
    this.host.setCatalog(this.agent.session.header.id, undefined)
  }
}

/** The records of the instruction notes a session logged, oldest first. */
function notesOf(agent: Agent): InstructionNoteData[] {
  const records: InstructionNoteData[] = []
  for (const event of agent.session.events)
    if (
      event.type === 'context/note' &&
      event.source === INSTRUCTIONS_SOURCE &&
      isNoteData(event.data)
    )
      records.push(event.data)
  return records
}

function isNoteData(value: unknown): value is InstructionNoteData {
  const data = value as Partial<InstructionNoteData> | undefined
  return (
    typeof data === 'object' &&
    data !== null &&
    Array.isArray(data.folders) &&
    Array.isArray(data.files)
  )
}
