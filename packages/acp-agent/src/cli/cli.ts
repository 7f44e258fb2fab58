// Command-line parsing for the `dsh-acp` bin: flags in, a plain decision out.
// Pure (no I/O, no process access), so tests cover every flag and every bad input directly.
// It does not read the script file or the environment; the bin does that after parsing. The
// serving flags come out under the config keys they fill (./cli-schema), ready for the app.
import { parseArgs } from 'node:util'
import type { ParseArgsConfig } from 'node:util'
import { CLI_SCHEMA, cliFlags } from './cli-schema'
import type { CliFlagPlace, CliServeOptions } from './cli-schema'

export { USAGE } from './cli-usage'
export type { CliServeOptions } from './cli-schema'

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | ({ kind: 'serve' } & CliServeOptions)
  /** Ask for the key of the server (`--base-url`'s, default DeepSeek's), check it, store it. */
  | { kind: 'login'; baseUrl?: string }
  /** Remove the stored key of the server. */
  | { kind: 'logout'; baseUrl?: string }
  /** Print Zed's settings entry for these flags (the others given, checked as for serving). */
  | { kind: 'zed-settings'; flags: string[] }
  | { kind: 'error'; message: string }

/** The flags that pick what the bin does instead of serving. */
const COMMAND_FLAGS = ['print-zed-settings', 'login', 'logout', 'help', 'version'] as const

type ParsedValues = Record<string, string | boolean | (string | boolean)[] | undefined>

/** Parses the bin's arguments (without `node` and the script path). Never throws. */
export function parseCli(args: readonly string[]): CliCommand {
  const flags = cliFlags()
  let values: ParsedValues
  try {
    values = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: optionsOf(flags),
    }).values
  } catch (error) {
    return { kind: 'error', message: describeParseError(error) }
  }
  if (values.help) return { kind: 'help' }
  if (values.version) return { kind: 'version' }
  const parsed = CLI_SCHEMA.safeParse(treeOf(values, flags))
  if (!parsed.success) {
    return { kind: 'error', message: parsed.error.issues[0]?.message ?? 'bad flags' }
  }
  const options = parsed.data
  if (values.login === true && values.logout === true) {
    return { kind: 'error', message: 'give --login or --logout, not both' }
  }
  if (values.login === true || values.logout === true) {
    const baseUrl = options.llm?.baseUrl
    return { kind: values.login === true ? 'login' : 'logout', ...(baseUrl && { baseUrl }) }
  }
  if (values['print-zed-settings'] === true) {
    return { kind: 'zed-settings', flags: args.filter((arg) => arg !== '--print-zed-settings') }
  }
  return { kind: 'serve', ...options }
}

function optionsOf(flags: CliFlagPlace[]): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = {}
  for (const { flag } of flags) {
    options[flag.name] = { type: flag.type, ...(flag.multiple && { multiple: true }) }
  }
  for (const name of COMMAND_FLAGS) options[name] = { type: 'boolean' }
  return options
}

/** The given flags' values placed at their config keys; a switch on an object makes it `{}`. */
function treeOf(values: ParsedValues, flags: CliFlagPlace[]): unknown {
  const tree: Record<string, unknown> = {}
  for (const { flag, path, opens } of flags) {
    const value = values[flag.name]
    if (value === undefined) continue
    let node = tree
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>
    const last = path[path.length - 1] as string
    node[last] = opens ? (node[last] ?? {}) : value
  }
  return tree
}

// node:util parseArgs reports problems with codes; turn the common ones into short sentences.
function describeParseError(error: unknown): string {
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /'([^']+)'/.exec(message)?.[1]
    return flag ? `unknown option ${flag}` : message
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /--[\w-]+/.exec(message)?.[0]
    if (!flag) return message
    return message.includes('does not take an argument')
      ? `${flag} takes no value`
      : `${flag} needs a value`
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const arg = /'([^']+)'/.exec(message)?.[1]
    return arg ? `unexpected argument "${arg}"` : message
  }
  return message
}
