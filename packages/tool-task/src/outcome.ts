// What a delegate's turn comes to: the task call's result (its report, or why it did not
// finish and its last words) with the details its card shows. Pure, over the child's end.
import type { Agent, TurnEnd } from '@deepseek-ai/dsh-agent'
import { fencedBlock } from '@deepseek-ai/dsh-tools'
import { reportOf } from './report'

/** What a finished task carries for its card. */
export interface TaskDetails {
  /** `general`, `explorer` or a project type's name. */
  type: string
  /** The child session's id. */
  session: string
  /** One line per tool call of the child: its title and how it ended. */
  calls: string[]
  report: string
  reason: string
}

export interface TaskOutcome {
  content: string
  details: TaskDetails
  isError: boolean
}

export function outcomeOf(child: Agent, type: string, calls: string[], end: TurnEnd): TaskOutcome {
  const details: TaskDetails = {
    type,
    session: child.session.header.id,
    calls,
    report: reportOf(child.session.events),
    reason: end.reason,
  }
  if (end.reason === 'completed') {
    const content = details.report || '(the delegate ended without a report)'
    return { content, details, isError: false }
  }
  const why = end.error !== undefined ? `: ${end.error}` : ''
  const partial =
    details.report === '' ? '' : `\nIts last words:\n${fencedBlock(details.report, '')}`
  const content = `The delegate did not finish (${end.reason}${why}).${partial}`
  return { content, details, isError: true }
}
