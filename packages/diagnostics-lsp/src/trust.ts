// Whether a server may start for a workspace. A language server loads project code in some
// setups (TypeScript plugins named in tsconfig.json, Python environment hooks), as an editor
// does. Sandboxed (read-only, no network), it starts unasked. Unsandboxed, a session in the
// `ask` mode asks its person once per workspace, through the session's own ask channel, and the
// answer holds for the provider's life; other modes, and hosts without a person, start it.
import type { ToolExecution, ToolPermissionRequest } from '@deepseek-ai/dsh-tools'
import type { ServerLauncher } from './launch'

const ALLOW = 'allow-language-servers'
const REFUSE = 'refuse-language-servers'

export class WorkspaceTrust {
  private readonly answers = new Map<string, Promise<boolean>>()

  constructor(private readonly launcher: ServerLauncher) {}

  async mayStart(
    server: string,
    workspace: string,
    exec: ToolExecution | undefined,
  ): Promise<boolean> {
    const why = await this.launcher.unsandboxed()
    if (why === undefined) return true
    // A child session's calls are judged under its root's mode and ask its person.
    const scope = exec?.session.scope
    const mode = scope?.mode
    const ask = scope?.channels.ask
    if (mode !== 'ask' || ask === undefined || exec === undefined) return true
    let answer = this.answers.get(workspace)
    if (answer === undefined) {
      answer = ask(requestFor(server, workspace, why, exec)).then(
        (said) => said.outcome === 'selected' && said.optionId === ALLOW,
      )
      this.answers.set(workspace, answer)
    }
    return answer
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
