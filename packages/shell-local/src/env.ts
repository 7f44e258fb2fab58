// The environment a command gets: the agent's own, less the secrets (the model's API key by
// name, and any variable holding a secret the app was given), plus settings that keep output
// plain and keep programs from waiting on a terminal: no colour, no pager, no git prompt.
// Pure.

/** What every command gets on top of the agent's environment. */
export const SHELL_ENV_ADDITIONS: Readonly<Record<string, string>> = {
  NO_COLOR: '1',
  TERM: 'dumb',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
}

/** Variables never passed to a command, whatever the config says. */
export const SHELL_HIDDEN_ENV: readonly string[] = [
  'DSH_API_KEY',
  'DEEPSEEK_API_KEY',
  'OPENAI_API_KEY',
]

export interface CommandEnvOptions {
  /** Names to leave out, besides SHELL_HIDDEN_ENV. */
  hide?: readonly string[]
  /** Secret values: a variable holding one of them is left out, whatever its name. */
  secrets?: readonly string[]
  /** Added last (the caller's additions win). */
  add?: Readonly<Record<string, string>>
}

export function commandEnv(
  base: Readonly<Record<string, string | undefined>>,
  options: CommandEnvOptions = {},
): Record<string, string> {
  const hidden = new Set([...SHELL_HIDDEN_ENV, ...(options.hide ?? [])])
  const secrets = new Set((options.secrets ?? []).filter((secret) => secret.length > 0))
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || hidden.has(name) || secrets.has(value)) continue
    env[name] = value
  }
  return { ...env, ...SHELL_ENV_ADDITIONS, ...options.add }
}
