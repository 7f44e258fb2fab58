// The project's delegate types as the model sees them before it names one: a prompt section of
// each root session's own (`tool-task/types`) listing every type of `.agents/agents/<name>.md`
// with its description and tools, its delegates included (they see their root's sections).
// Read again before each model request of the session (a context source that adds no note): a
// file added, edited or removed changes the section at the next request, and an unchanged one
// leaves it alone, so the prompt's cached prefix stays. Skipped files are told to the person
// once per session (the same memory the task tool tells them with). Not the types' format
// (./project-types) nor the tool (./task).
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ToolSessionScope } from '@deepseek-ai/dsh-tools'
import { loadProjectTypes } from './project-types'
import type { ProjectType, ProjectTypes } from './project-types'

/** The most types listed, and the characters of one description, so the section stays small. */
export const TYPE_CATALOG_LIMITS = { types: 30, description: 200 }

/** The section's text; `undefined` when the project has no type. */
export function typeCatalogText(types: readonly ProjectType[]): string | undefined {
  if (types.length === 0) return undefined
  const listed = types.slice(0, TYPE_CATALOG_LIMITS.types).map((type) => {
    const flat = type.description.replace(/\s+/g, ' ')
    const description =
      flat.length <= TYPE_CATALOG_LIMITS.description
        ? flat
        : `${flat.slice(0, TYPE_CATALOG_LIMITS.description - 1)}…`
    const tools = type.tools === undefined ? '' : ` (tools: ${type.tools.join(', ') || 'none'})`
    return `- ${type.name}: ${description}${tools}`
  })
  const more = types.length - listed.length
  if (more > 0) listed.push(`- (${more} more, named in .agents/agents/)`)
  return [
    '## Delegate types of this project',
    'Besides `general` and `explorer`, this project defines these delegate types; give one as `agent_type` when a task fits its description.',
    ...listed,
  ].join('\n')
}

/**
 * Tells the person of `session` about each type file skipped, once per session and problem
 * (`told` remembers what each session was told).
 */
export function tellSkippedTypes(
  told: WeakMap<ToolSessionScope, Set<string>>,
  scope: ToolSessionScope,
  project: ProjectTypes,
): void {
  const seen = told.get(scope) ?? new Set<string>()
  told.set(scope, seen)
  for (const { file, problem } of project.skipped) {
    const key = `${file}: ${problem}`
    if (seen.has(key)) continue
    seen.add(key)
    scope.channels.notice?.({
      title: `Delegate type file ${file} was skipped`,
      description: `${problem}.`,
    })
  }
}

export interface TypeCatalogHost {
  /** Adds a prompt section for one session; returns its removal. */
  addSection(text: string, session: string): () => void
  /** Tells the person of the session about the files skipped (once each). */
  tellSkipped(scope: ToolSessionScope, project: ProjectTypes): void
}

/** The sections set, per root session id; one refresh of a root at a time. */
export class TypeCatalogs {
  private readonly sections = new Map<string, { text: string; remove: () => void }>()
  private readonly refreshing = new Map<string, Promise<void>>()
  /** The roots whose end is watched. */
  private readonly watched = new Set<string>()

  constructor(private readonly host: TypeCatalogHost) {}

  /**
   * Reads the types of `agent`'s workspace and sets its root session's section to match; a
   * refresh of the same root already under way is waited for first (delegates side by side).
   */
  refresh(agent: Agent): Promise<void> {
    const { scope, header } = agent.session
    const { id } = scope
    if (header.id === id && !this.watched.has(id)) {
      // The root's first request: its end drops its section.
      this.watched.add(id)
      agent.lifetime.addEventListener('abort', () => this.drop(id), { once: true })
    }
    const before = this.refreshing.get(id) ?? Promise.resolve()
    const next = before.then(() => this.update(scope, header.cwd))
    this.refreshing.set(
      id,
      next.catch(() => undefined),
    )
    return next
  }

  /** Removes every section (the plugin's end). */
  clear(): void {
    for (const { remove } of this.sections.values()) remove()
    this.sections.clear()
    this.refreshing.clear()
  }

  private async update(scope: ToolSessionScope, cwd: string): Promise<void> {
    const { id } = scope
    const project = await loadProjectTypes(cwd)
    if (!this.refreshing.has(id)) return // the root ended meanwhile: nothing to set
    this.host.tellSkipped(scope, project)
    const text = typeCatalogText(project.types)
    const known = this.sections.get(id)
    if (known?.text === text) return
    known?.remove()
    this.sections.delete(id)
    if (text !== undefined) this.sections.set(id, { text, remove: this.host.addSection(text, id) })
  }

  private drop(id: string): void {
    this.watched.delete(id)
    this.refreshing.delete(id)
    this.sections.get(id)?.remove()
    this.sections.delete(id)
  }
}
