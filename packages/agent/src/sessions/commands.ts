// A session's slash commands: what the person may type as `/name text` in this session. Each
// plugin that adds commands offers them under its own key and a rank (the bridge's built-ins,
// undo's `/undo` and `/redo`, the project's knowledge: the person's commands, skills); a name
// offered twice goes to the higher rank — built-in, then the person's, then skills — and then to
// the first offered. A client bridge draws the list (`list`, `shadowed`, `onChange`) and runs
// what a prompt names (`match`). Not the drawing, and not what a command's answer does to the
// session (the bridge's). Cordis-free.

/** Who offers a command; a name offered by several goes to the first rank in RANKS. */
export type SessionCommandRank = 'built-in' | 'person' | 'skill'

const RANKS: readonly SessionCommandRank[] = ['built-in', 'person', 'skill']

/** What running a command comes to. */
export type SessionCommandAction =
  /** A turn with this message. */
  | { prompt: string }
  /** This text shown to the person; no turn, nothing logged. */
  | { reply: string }
  /** The conversation compacted now (agent.compact()). */
  | { compact: true }

export interface SessionCommand {
  name: string
  description: string
  /** What to type after the name, when it takes text. */
  hint?: string
  /** Where it comes from (a file), named when it shadows or is shadowed. */
  origin?: string
  /** What the command does with the text after its name (trimmed; empty when none). */
  run(text: string): SessionCommandAction | Promise<SessionCommandAction>
}

/** A command another of the same name hides (`winner` undefined: none is offered now). */
export interface ShadowedCommand {
  hidden: SessionCommand
  rank: SessionCommandRank
  winner: SessionCommand | undefined
}

interface Offer {
  rank: SessionCommandRank
  commands: readonly SessionCommand[]
}

export class SessionCommands {
  private readonly offers = new Map<string, Offer>()
  private readonly listeners = new Set<() => void>()

  /**
   * Offers `commands` under `key` at `rank`, replacing what was offered under that key before
   * (an empty list withdraws them). Tells every `onChange` listener.
   */
  offer(key: string, rank: SessionCommandRank, commands: readonly SessionCommand[]): void {
    this.offers.set(key, { rank, commands: [...commands] })
    for (const listener of [...this.listeners]) listener()
  }

  /** Calls `listener` after each offer; returns what stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The commands offered now, one per name: by rank, then in the order offered. */
  list(): SessionCommand[] {
    return [...this.winners().values()]
  }

  /** Every command offered now that another of its name hides. */
  shadowed(): ShadowedCommand[] {
    const winners = this.winners()
    const hidden: ShadowedCommand[] = []
    for (const offer of this.offers.values())
      for (const command of offer.commands) {
        const winner = winners.get(command.name)
        if (winner !== command) hidden.push({ hidden: command, rank: offer.rank, winner })
      }
    return hidden
  }

  /** The command a prompt names and the text after it; `undefined` for any other prompt. */
  match(prompt: string): { command: SessionCommand; text: string } | undefined {
    const found = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(prompt.trim())
    if (found === null) return undefined
    const command = this.winners().get(found[1]!)
    return command && { command, text: (found[2] ?? '').trim() }
  }

  private winners(): Map<string, SessionCommand> {
    const winners = new Map<string, SessionCommand>()
    for (const rank of RANKS)
      for (const offer of this.offers.values()) {
        if (offer.rank !== rank) continue
        for (const command of offer.commands)
          if (!winners.has(command.name)) winners.set(command.name, command)
      }
    return winners
  }
}
