// The slash commands of an ACP session, drawn and run: the session's own commands (the agent's
// `commands`, which the bridge's built-ins, undo and the project's knowledge offer to) go out
// as `available_commands_update` when the session opens and whenever an offer changes them
// (one update per tick), and a command another of its name hides is named in a notice, once.
// A prompt `/name text` runs the command with `text` (./command-prompts). The ranking itself
// is the session's (agent's SessionCommands); here is only what the client is shown.
import type { AvailableCommand, SessionUpdate } from '@agentclientprotocol/sdk'
import type { Agent, SessionCommand, SessionCommands } from '@deepseek-ai/dsh-agent'
import type { AcpNotice } from './notice'

/** The commands the bridge itself offers; a built-in of an app's joins them by its own offer. */
export const BUILT_IN_COMMANDS: readonly SessionCommand[] = [
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
export function planCommand(agent: Pick<Agent, 'setMode'>): SessionCommand {
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

/** A session's commands as its client sees them: offers the built-ins, draws every change. */
export class DrawnCommands {
  /** Shadowings the person was told of (`name` and the shadowed command's origin). */
  private readonly told = new Set<string>()
  private readonly stop: () => void
  private scheduled = false
  private closed = false

  constructor(
    readonly commands: SessionCommands,
    private readonly send: (update: SessionUpdate) => void,
    private readonly notify: (notice: AcpNotice) => void,
  ) {
    commands.offer('acp', 'built-in', BUILT_IN_COMMANDS)
    this.stop = commands.onChange(() => this.announce())
  }

  /** Sends the list (and any new shadowing) on the next tick, once however often it is asked. */
  announce(): void {
    if (this.scheduled || this.closed) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      if (this.closed) return
      this.send({ sessionUpdate: 'available_commands_update', availableCommands: this.drawn() })
      for (const notice of this.newlyShadowed()) this.notify(notice)
    })
  }

  close(): void {
    this.closed = true
    this.stop()
  }

  private drawn(): AvailableCommand[] {
    return this.commands.list().map(({ name, description, hint }) => ({
      name,
      description,
      ...(hint !== undefined && { input: { hint } }),
    }))
  }

  private newlyShadowed(): AcpNotice[] {
    const notices: AcpNotice[] = []
    for (const { hidden, rank, winner } of this.commands.shadowed()) {
      const key = `${hidden.name}\0${hidden.origin ?? rank}`
      if (this.told.has(key)) continue
      this.told.add(key)
      notices.push(shadowNotice(hidden, winner))
    }
    return notices
  }
}

function shadowNotice(hidden: SessionCommand, winner: SessionCommand | undefined): AcpNotice {
  const where = hidden.origin === undefined ? '' : ` (${hidden.origin})`
  const by = winner?.origin === undefined ? 'a built-in command' : winner.origin
  return {
    title: `The command /${hidden.name}${where} is hidden by ${by} of the same name.`,
    description:
      'Built-in commands come first, then your own commands, then skills. Rename the file to offer both.',
    severity: 'warning',
  }
}
