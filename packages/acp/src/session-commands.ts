// The slash commands a session offers: the bridge's built-in ones (BUILT_IN_COMMANDS) and those
// an app offers per session through `acp/session-open` (the person's own commands, skills, a
// built-in whose work lives elsewhere such as `instructions`). A name offered twice goes to the
// higher rank — built-in, then the person's, then skills — and the one it shadows is named in a
// notice, once. The list goes out as `available_commands_update` when the session opens and
// whenever an offer changes it (one update per tick). A prompt `/name text` runs the command
// with `text`. Not the commands' own work (the session record runs what they answer).
import type { AvailableCommand, SessionUpdate } from '@agentclientprotocol/sdk'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { AcpNotice } from './notice'

/** Who offers a command; a name offered by several goes to the first rank in RANKS. */
export type AcpCommandRank = 'built-in' | 'person' | 'skill'

const RANKS: readonly AcpCommandRank[] = ['built-in', 'person', 'skill']

/** What running a command comes to. */
export type AcpCommandAction =
  /** A turn with this message. */
  | { prompt: string }
  /** This text shown to the person; no turn, nothing logged. */
  | { reply: string }
  /** The conversation compacted now (agent.compact()). */
  | { compact: true }

export interface AcpCommand {
  name: string
  description: string
  /** What to type after the name, when it takes text. */
  hint?: string
  /** Where it comes from (a file), named in the notice when it shadows or is shadowed. */
  origin?: string
  /** What the command does with the text after its name (trimmed; empty when none). */
  run(text: string): AcpCommandAction | Promise<AcpCommandAction>
}

/** The commands the bridge itself offers; a built-in of an app's joins them by `offer`. */
export const BUILT_IN_COMMANDS: readonly AcpCommand[] = [
  {
    name: 'compact',
    description: 'Compact the conversation now: old tool outputs elided, older turns summarised',
    run: () => ({ compact: true }),
  },
]

/**
 * `/plan [text]`, offered where `plan` is one of the session's modes: the session plans from
 * now on; the text, if any, is the prompt of a turn.
 */
export function planCommand(agent: Pick<Agent, 'setMode'>): AcpCommand {
  return {
    name: 'plan',
    description: 'Plan first: look around and propose a plan; nothing changes until you approve it',
    hint: 'what to plan (optional)',
    run: (text) => {
      agent.setMode('plan')
      if (text !== '') return { prompt: text }
      return { reply: 'Planning: nothing changes until you approve a plan. What should I plan?' }
    },
  }
}

/** What an app may do with a session's commands (see AcpSessionOpening.commands). */
export interface AcpSessionCommands {
  /**
   * Offers `commands` under `key` at `rank`, replacing what was offered under that key before
   * (an empty list withdraws them).
   */
  offer(key: string, rank: AcpCommandRank, commands: readonly AcpCommand[]): void
}

interface Offer {
  rank: AcpCommandRank
  commands: readonly AcpCommand[]
}

export class SessionCommands implements AcpSessionCommands {
  private readonly offers = new Map<string, Offer>([
    ['acp', { rank: 'built-in', commands: BUILT_IN_COMMANDS }],
  ])
  /** Shadowings the person was told of (`name` and the shadowed command's origin). */
  private readonly told = new Set<string>()
  private scheduled = false
  private closed = false

  constructor(
    private readonly send: (update: SessionUpdate) => void,
    private readonly notify: (notice: AcpNotice) => void,
  ) {}

  offer(key: string, rank: AcpCommandRank, commands: readonly AcpCommand[]): void {
    this.offers.set(key, { rank, commands: [...commands] })
    this.announce()
  }

  /** Sends the list (and any new shadowing) on the next tick, once however often it is asked. */
  announce(): void {
    if (this.scheduled || this.closed) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      if (this.closed) return
      const { commands, shadowed } = this.resolve()
      this.send({ sessionUpdate: 'available_commands_update', availableCommands: commands })
      for (const notice of shadowed) this.notify(notice)
    })
  }

  /** The command a prompt names and the text after it; `undefined` for any other prompt. */
  match(prompt: string): { command: AcpCommand; text: string } | undefined {
    const found = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(prompt.trim())
    if (found === null) return undefined
    const command = this.winners().get(found[1]!)
    return command && { command, text: (found[2] ?? '').trim() }
  }

  close(): void {
    this.closed = true
  }

  /** Each name's command, by rank, then in the order offered. */
  private winners(): Map<string, AcpCommand> {
    const winners = new Map<string, AcpCommand>()
    for (const rank of RANKS)
      for (const offer of this.offers.values()) {
        if (offer.rank !== rank) continue
        for (const command of offer.commands)
          if (!winners.has(command.name)) winners.set(command.name, command)
      }
    return winners
  }

  private resolve(): { commands: AvailableCommand[]; shadowed: AcpNotice[] } {
    const winners = this.winners()
    const shadowed: AcpNotice[] = []
    for (const offer of this.offers.values())
      for (const command of offer.commands) {
        const winner = winners.get(command.name)
        const key = `${command.name}\0${command.origin ?? offer.rank}`
        if (winner === command || this.told.has(key)) continue
        this.told.add(key)
        shadowed.push(shadowNotice(command, winner))
      }
    const commands = [...winners.values()].map(({ name, description, hint }): AvailableCommand => ({
      name,
      description,
      ...(hint !== undefined && { input: { hint } }),
    }))
    return { commands, shadowed }
  }
}

function shadowNotice(hidden: AcpCommand, winner: AcpCommand | undefined): AcpNotice {
  const where = hidden.origin === undefined ? '' : ` (${hidden.origin})`
  const by = winner?.origin === undefined ? 'a built-in command' : winner.origin
  return {
    title: `The command /${hidden.name}${where} is hidden by ${by} of the same name.`,
    description:
      'Built-in commands come first, then your own commands, then skills. Rename the file to offer both.',
    severity: 'warning',
  }
}
