// The environment a command gets: the agent's own, less every secret, plus settings that keep
// output plain and keep programs from waiting on a terminal: no colour, no pager, no git prompt.
// A secret is a variable whose name says it is one (`*_API_KEY`, `*_TOKEN`, `*_SECRET`,
// `*_PASSWORD`, `AWS_*`, and the like: see SECRET_NAME), a name the config hides, or any
// variable holding a secret value the app was given (the model's key), whatever its name. A
// person passes one through by name (`pass`; the bin's `--pass-env NAME`); a variable holding
// the app's own key is never passed. Pure.

/** What every command gets on top of the agent's environment. */
export const SHELL_ENV_ADDITIONS: Readonly<Record<string, string>> = {
  NO_COLOR: '1',
  TERM: 'dumb',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
}

/** The model keys, hidden by name whatever the config says. */
export const SHELL_HIDDEN_ENV: readonly string[] = [
  'DSH_API_KEY',
  'DEEPSEEK_API_KEY',
  'OPENAI_API_KEY',
]

/** Names that look like secrets (upper or lower case). */
export const SECRET_NAME =
  /(^|_)(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_KEY|ACCESS_KEY)($|_)|^AWS_|_KEY$/i

export interface CommandEnvOptions {
  /** Names to leave out, besides SHELL_HIDDEN_ENV and the names that look like secrets. */
  hide?: readonly string[]
  /** Secret values: a variable holding one of them is left out, whatever its name or `pass`. */
  secrets?: readonly string[]
  /** Names passed on although they look like secrets (the person's choice). */
  pass?: readonly string[]
  /** Added last (the caller's additions win). */
  add?: Readonly<Record<string, string>>
}

/** True when a variable of this name is left out unless passed by name. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name)
}

export function commandEnv(
  base: Readonly<Record<string, string | undefined>>,
  options: CommandEnvOptions = {},
): Record<string, string> {
  const hidden = new Set([...SHELL_HIDDEN_ENV, ...(options.hide ?? [])])
  const passed = new Set(options.pass ?? [])
  const secrets = new Set((options.secrets ?? []).filter((secret) => secret.length > 0))
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || secrets.has(value)) continue
    if (!passed.has(name) && (hidden.has(name) || isSecretName(name))) continue
    env[name] = value
  }
  return { ...env, ...SHELL_ENV_ADDITIONS, ...options.add }
}
