// How a server is started: its argv inside bubblewrap's read-only sandbox where bwrap works and
// the config allows (it reads the whole filesystem, writes nowhere that lasts, has no network;
// the layout is shell-sandbox's), else as it is. Its environment is a command's: the agent's
// own less every secret (shell-local's rule), with what the server's spec sets over it (a
// virtual environment's activation). Whether bwrap works is probed once, off the event loop.
import { commandEnv } from '@deepseek-ai/dsh-shell-local'
import {
  READ_ONLY_TMPDIR,
  bwrapArgs,
  planOf,
  probeSandboxAsync,
} from '@deepseek-ai/dsh-shell-sandbox'

export class ServerLauncher {
  private probe: Promise<string | undefined> | undefined

  constructor(
    private readonly bwrap: string,
    private readonly sandbox: 'auto' | 'off',
  ) {}

  /** Why servers run unsandboxed here (`undefined`: they are sandboxed). */
  async unsandboxed(): Promise<string | undefined> {
    if (this.sandbox === 'off') return 'the sandbox is turned off'
    this.probe ??= probeSandboxAsync(this.bwrap)
    return this.probe
  }

  /** The argv and environment that start `argv` for `root`, with `env` set over the agent's. */
  async launch(
    argv: readonly string[],
    root: string,
    env: Record<string, string> = {},
  ): Promise<{ argv: string[]; env: Record<string, string>; sandboxed: boolean }> {
    if ((await this.unsandboxed()) !== undefined) {
      return { argv: [...argv], env: commandEnv(process.env, { add: env }), sandboxed: false }
    }
    const args = bwrapArgs(planOf({ writable: [], network: false }, root, { visible: [] }))
    return {
      argv: [this.bwrap, ...args, ...argv],
      env: commandEnv(process.env, { add: { ...env, TMPDIR: READ_ONLY_TMPDIR } }),
      sandboxed: true,
    }
  }
}
