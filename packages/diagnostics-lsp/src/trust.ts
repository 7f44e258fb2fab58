// Whether a server may start for a workspace. A language server loads project code in some
// setups (TypeScript plugins named in tsconfig.json, Python environment hooks), as an editor
// does. Sandboxed (read-only, no network), it starts unasked. Unsandboxed, a session in the
// `ask` mode asks its person once per workspace, through the session's own ask channel, and the
// answer holds for the provider's life; other modes, and hosts without a person, start it. The
// question is handed back while unanswered, so a caller bounds its own wait for it.
import type {
  ToolExecution,
  ToolPermissionAnswer,
  ToolPermissionRequest,
} from '@deepseek-ai/dsh-tools'
import type { ServerLauncher } from './launch'

const ALLOW = 'allow-language-servers'
const REFUSE = 'refuse-language-servers'

/** The person is being asked: their answer, and when the question went out (Date.now()). */
export interface TrustAsking {
  answer: Promise<boolean>
  since: number
}

export class WorkspaceTrust {
  private readonly answers = new Map<string, { asking: TrustAsking; said?: boolean }>()

  constructor(private readonly launcher: ServerLauncher) {}

  /**
   * Whether a server may start in `workspace`: at once when no one needs asking or the person
   * has answered, else the question being asked (asked now when it was not yet). The answer
   * holds for the provider's life; a question the channel failed counts as a refusal; one
   * cancelled (the person stopped the turn) refuses this time and is asked again next time.
   */
  async mayStart(
    server: string,
    workspace: string,
    exec: ToolExecution | undefined,
  ): Promise<boolean | TrustAsking> {
    const why = await this.launcher.unsandboxed()
    if (why === undefined) return true
    // A child session's calls are judged under its root's mode and ask its person.
    const scope = exec?.session.scope
    const mode = scope?.mode
    const ask = scope?.channels.ask
    if (mode !== 'ask' || ask === undefined || exec === undefined) return true
    const known = this.answers.get(workspace)
    if (known !== undefined) return known.said ?? known.asking
    const request = requestFor(server, workspace, why, exec)
    const entry = { asking: { answer: this.answer(workspace, ask, request), since: Date.now() } }
    this.answers.set(workspace, entry)
    return entry.asking
  }

  private async answer(
    workspace: string,
    ask: (request: ToolPermissionRequest) => Promise<ToolPermissionAnswer>,
    request: ToolPermissionRequest,
  ): Promise<boolean> {
    let said: ToolPermissionAnswer
    try {
      said = await ask(request)
    } catch {
      said = { outcome: 'failed', reason: 'the question could not be asked' }
    }
    // Cancelled: the person stopped the turn, which says nothing of the servers: ask again.
    if (said.outcome === 'cancelled') {
      this.answers.delete(workspace)
      return false
    }
    const allowed = said.outcome === 'selected' && said.optionId === ALLOW
    const entry = this.answers.get(workspace)
    if (entry !== undefined) entry.said = allowed
    return allowed
  }
}

function requestFor(
  server: string,
  workspace: string,
  why: string,
  exec: ToolExecution,
): ToolPermissionRequest {
  const text =
    `To show the errors an edit makes, dsh runs the project's language servers (first: ${server}). ` +
    `They can load project code (plugins named in its config), and here they would run without ` +
    `a sandbox (${why}). Asked once for ${workspace}.`
  return {
    exec,
    presentation: { title: `Start language servers in ${workspace}?`, kind: 'execute' },
    preview: [{ type: 'text', text }],
    options: [
      { optionId: ALLOW, kind: 'allow_always', name: 'Start them for this workspace' },
      { optionId: REFUSE, kind: 'reject_once', name: 'No diagnostics here' },
    ],
  }
}
