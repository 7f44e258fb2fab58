// One project's skills and the person's commands, kept current: read from their places when
// the catalog opens, and read again when a file there changes (fs.watch on each place, or on
// the nearest folder above it while it does not exist, so a place made later is found). A
// change that alters what is offered is told to the listeners once. Cordis-free.
import { watch } from 'node:fs'
import type { FSWatcher } from 'node:fs'
import { stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { findCommands } from './commands'
import type { PersonCommand } from './commands'
import type { KnowledgeHome } from './paths'
import { findSkills } from './skills'
import type { KnowledgeProblem, Skill } from './skills'

export interface CatalogPlaces {
  skills: string[]
  commands: string[]
  /** The session's folders: a project place's files must really lie in them to be read. */
  within?: readonly string[]
  /** The project's places (the first of each list); the others are the person's own. */
  project?: readonly string[]
}

/** Where a project's skills and commands are looked for, in their order. */
export function catalogPlaces(
  root: string,
  home: KnowledgeHome,
  within: readonly string[] = [root],
): CatalogPlaces {
  return {
    within,
    project: [join(root, '.agents', 'skills'), join(root, '.agents', 'commands')],
    skills: [
      join(root, '.agents', 'skills'),
      join(home.config, 'skills'),
      join(home.home, '.agents', 'skills'),
    ],
    commands: [join(root, '.agents', 'commands'), join(home.config, 'commands')],
  }
}

/** How long a burst of file events is waited out before the places are read again. */
const SETTLE_MS = 50
/** How many folders up a missing place is watched from. */
const WATCH_UP = 2

export class ProjectCatalog {
  skills: Skill[] = []
  commands: PersonCommand[] = []
  problems: KnowledgeProblem[] = []
  /** Settles once the places were read the first time. */
  readonly ready: Promise<void>
  private readonly listeners = new Set<() => void>()
  private watchers: FSWatcher[] = []
  private timer: NodeJS.Timeout | undefined
  private closed = false
  private last = ''

  constructor(private readonly places: CatalogPlaces) {
    this.ready = this.refresh()
  }

  /** Calls `listener` after each change of what is offered; returns its removal. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  /** The skill named `name`, if the catalog has it. */
  skill(name: string): Skill | undefined {
    return this.skills.find((skill) => skill.name === name)
  }

  close(): void {
    this.closed = true
    clearTimeout(this.timer)
    this.unwatch()
    this.listeners.clear()
  }

  /** Reads the places again; tells the listeners when what is offered changed. */
  private async refresh(): Promise<void> {
    // Watched first, read after: a file written meanwhile is in the read or makes an event.
    await this.rewatch()
    if (this.closed) return
    const { within, project } = this.places
    const bounds = (place: string) => (project?.includes(place) ? within : undefined)
    const [skills, commands] = await Promise.all([
      findSkills(this.places.skills, bounds),
      findCommands(this.places.commands, bounds),
    ])
    if (this.closed) return
    this.skills = skills.skills
    this.commands = commands.commands
    this.problems = [...skills.problems, ...commands.problems]
    const now = JSON.stringify([this.skills, this.commands, this.problems])
    if (now === this.last) return
    const first = this.last === ''
    this.last = now
    if (!first) for (const listener of [...this.listeners]) listener()
  }

  private schedule(): void {
    if (this.closed) return
    clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.refresh(), SETTLE_MS)
  }

  private async rewatch(): Promise<void> {
    this.unwatch()
    // A place is watched whole; a folder above a missing place only for its own entries (a
    // project's root watched whole would mean a watch per folder of the tree).
    const folders = new Map<string, boolean>()
    for (const place of [...this.places.skills, ...this.places.commands]) {
      const folder = await nearestFolder(place)
      if (folder !== undefined)
        folders.set(folder, folders.get(folder) === true || folder === place)
    }
    if (this.closed) return
    for (const [folder, recursive] of folders) {
      try {
        const watcher = watch(folder, { recursive }, () => this.schedule())
        watcher.on('error', () => watcher.close()) // the folder went: the next refresh rewatches
        this.watchers.push(watcher)
      } catch {
        // Cannot be watched (no more watches, no permission): changes there are not followed.
      }
    }
  }

  private unwatch(): void {
    for (const watcher of this.watchers.splice(0)) watcher.close()
  }
}

/** `place` when it is a folder, else the nearest folder above it (at most WATCH_UP up). */
async function nearestFolder(place: string): Promise<string | undefined> {
  let folder = place
  for (let up = 0; up <= WATCH_UP; up++) {
    try {
      if ((await stat(folder)).isDirectory()) return folder
    } catch {
      // Not there: try the folder above.
    }
    folder = dirname(folder)
  }
  return undefined
}
