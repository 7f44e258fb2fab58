// What `dsh-acp --print-zed-settings` prints: the `agent_servers` entry of Zed's settings.json
// that starts this very install with the flags given beside the print flag, so a person pastes
// one block. Pure: the bin passes its argv, the path it was started by and the environment's
// key names. A key's value is never printed: the entry names the variable with a placeholder.
import { basename, resolve } from 'node:path'

export interface ZedSettingsInput {
  /** The flags given, without `--print-zed-settings`. */
  flags: readonly string[]
  /** The script the process was started by (process.argv[1]). */
  started: string
  /** The Node binary running it (process.execPath). */
  execPath: string
  /** The API key variable set in the environment, if any (DSH_API_KEY, DEEPSEEK_API_KEY…). */
  keyVariable?: string
}

export function zedSettings(input: ZedSettingsInput): string {
  const started = resolve(input.started)
  // Run through the installed link (`dsh-acp` on the PATH), the entry names it; run by path
  // (`node …/bin.js`), it names Node and the file, as the person started it.
  const launch =
    basename(started) === 'dsh-acp'
      ? { command: started, args: [...input.flags] }
      : { command: input.execPath, args: [started, ...input.flags] }
  const local = input.flags.some((flag) => flag === '--base-url' || flag.startsWith('--base-url='))
  const scripted = input.flags.some((flag) => flag === '--script' || flag.startsWith('--script='))
  const keyVariable = input.keyVariable ?? (local || scripted ? undefined : 'DEEPSEEK_API_KEY')
  const entry = {
    type: 'custom',
    ...launch,
    ...(keyVariable !== undefined && { env: { [keyVariable]: 'your key here' } }),
  }
  return `${JSON.stringify({ agent_servers: { dsh: entry } }, null, 2)}\n`
}
