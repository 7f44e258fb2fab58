// How a person signs in to dsh from the editor (the bridge's AcpAuth, see the acp package): one
// method, `dsh-login`. To a client that runs terminal logins (Zed) it is a `terminal` method
// whose args (`--login`) the client appends to the agent's own command, and, for a client that
// asked with `_meta["terminal-auth"]`, the whole command under that key too; to any other
// client it is an `agent` method: `authenticate` looks for a key given since. A server that
// needs a key (DeepSeek's host) opens no session without one: auth_required says how to log in.
import type { AuthMethod } from '@agentclientprotocol/sdk'
import type { AcpAuth, AcpAuthClient } from '@deepseek-ai/dsh-acp'
import { DEFAULT_BASE_URL, isDeepSeekHost } from '@deepseek-ai/dsh-llm-openai'
import { ApiKeySource } from './api-key'
import { credentialsPath } from './credentials'

export const LOGIN_METHOD_ID = 'dsh-login'

export interface AppAuthOptions {
  keys: ApiKeySource
  /** The credentials file, named in the words to the person. */
  file: string
  /** The server asks for a key (DeepSeek's host); a local server does not. */
  needsKey: boolean
  /** This process's own command (Node and the start, then its flags), for `_meta`. */
  launch: { command: string; args: readonly string[] }
}

/** How the bin serving a model server finds its key and signs its clients in. */
export function serverSignIn(input: {
  baseUrl?: string
  env: Record<string, string | undefined>
  launch: AppAuthOptions['launch']
  warn(problem: string): void
}): { keys: ApiKeySource; auth: AcpAuth } {
  const baseUrl = input.baseUrl ?? DEFAULT_BASE_URL
  const file = credentialsPath(input.env)
  const keys = new ApiKeySource({ env: input.env, file, baseUrl, warn: input.warn })
  const needsKey = isDeepSeekHost(baseUrl)
  return { keys, auth: appAuth({ keys, file, needsKey, launch: input.launch }) }
}

export function appAuth(options: AppAuthOptions): AcpAuth {
  const { keys } = options
  return {
    methods: (client) => [loginMethod(client, options)],
    required: () => {
      if (!options.needsKey) return undefined
      keys.refresh()
      return keys.current() === undefined ? loginAdvice(options.file) : undefined
    },
    logout: () => keys.logout(),
  }
}

/** What the person does when there is no key: the words of auth_required. */
export function loginAdvice(file: string): string {
  return (
    'dsh has no DeepSeek API key. Log in: run `dsh-acp --login` in a terminal (it asks for ' +
    `the key and keeps it in ${file}), or set DEEPSEEK_API_KEY in the agent's environment ` +
    '(Zed: the env of its agent_servers entry). Then start a new thread.'
  )
}

function loginMethod(client: AcpAuthClient, options: AppAuthOptions): AuthMethod {
  const name = 'Log in with a DeepSeek API key'
  if (!client.terminal) {
    return {
      id: LOGIN_METHOD_ID,
      name,
      description:
        'Run `dsh-acp --login` in a terminal, or set DEEPSEEK_API_KEY in the agent environment; then choose this to go on.',
    }
  }
  return {
    id: LOGIN_METHOD_ID,
    name,
    description: `Type the key in a terminal; dsh keeps it in ${options.file}.`,
    type: 'terminal',
    args: ['--login'],
    ...(client.terminalMeta && {
      _meta: {
        'terminal-auth': {
          label: 'dsh login',
          command: options.launch.command,
          args: [...options.launch.args, '--login'],
        },
      },
    }),
  }
}
