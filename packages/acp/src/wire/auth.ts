// How a connection's client signs in, as the app decides it: the methods `initialize` offers
// (a terminal login to a client that can run one, else a method the agent handles), the gate
// before a session opens (ACP's auth_required, -32000, with the app's words on what to do),
// `authenticate` and `logout`. The bridge knows no keys or files: the app's `AcpAuth` does.
// Without one, `initialize` offers no methods and every session opens.
import { RequestError } from '@agentclientprotocol/sdk'
import type { AuthMethod, ClientCapabilities } from '@agentclientprotocol/sdk'

/** What the client said it can do for a login. */
export interface AcpAuthClient {
  /**
   * The client runs a `terminal` method: `clientCapabilities.auth.terminal`, or Zed's
   * earlier `_meta["terminal-auth"]` (the client then also reads the method's own
   * `_meta["terminal-auth"]` command).
   */
  terminal: boolean
  /** The client named `_meta["terminal-auth"]`, the form that wants a full command. */
  terminalMeta: boolean
}

/** The app's side of signing in, given to `serve`. */
export interface AcpAuth {
  /** The methods `initialize` lists for this client. */
  methods(client: AcpAuthClient): AuthMethod[]
  /**
   * Asked before each session/new, /load and /resume and at `authenticate`: undefined when
   * sessions may open, else what the person must do (the auth_required error's message). It
   * may look again for credentials given since (a login in a terminal).
   */
  required(): string | undefined
  /** ACP `logout` (advertised as `agentCapabilities.auth.logout` when present). */
  logout?(): void | Promise<void>
}

/** What `clientCapabilities` say of terminal logins. */
export function authClientOf(capabilities: ClientCapabilities | undefined): AcpAuthClient {
  const terminalMeta = capabilities?._meta?.['terminal-auth'] === true
  return { terminal: capabilities?.auth?.terminal === true || terminalMeta, terminalMeta }
}

/** Throws auth_required with the app's words when a session may not open yet. */
export function assertSignedIn(auth: AcpAuth | undefined): void {
  const required = auth?.required()
  if (required !== undefined) throw RequestError.authRequired(undefined, required)
}

/**
 * `authenticate`: a method this connection was offered (a terminal one too, though a client
 * should not send it: its login ran in the terminal), then the gate; `{}` when signed in. An
 * unknown method without an app's sign-in, as the protocol has it for an agent offering none.
 */
export function authenticate(
  auth: AcpAuth | undefined,
  offered: readonly AuthMethod[],
  methodId: string,
): Record<string, never> {
  if (auth === undefined) throw RequestError.methodNotFound('authenticate')
  if (!offered.some((method) => method.id === methodId)) {
    const ids = offered.map((method) => method.id).join(', ')
    const known =
      ids === '' ? 'none were offered (send initialize first)' : `the methods are: ${ids}`
    throw RequestError.invalidParams({ methodId }, `Unknown auth method "${methodId}": ${known}.`)
  }
  assertSignedIn(auth)
  return {}
}

/** ACP `logout`: refused as an unknown method when the app offers none. */
export async function logout(auth: AcpAuth | undefined): Promise<Record<string, never>> {
  if (auth?.logout === undefined) throw RequestError.methodNotFound('logout')
  await auth.logout()
  return {}
}
