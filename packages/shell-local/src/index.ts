// LocalShell: ctx.shell on the host. Each command is `bash -c <command>` in its own process
// group (./spawn-group), with the environment of ./env. It confines nothing: `confinement`
// answers `undefined`, so a permission layer asks about what it would run. Disposing it ends
// every command and job it started.
import type { Context } from 'cordis'
import { Shell, ShellError } from '@deepseek-ai/dsh-shell'
import type { ShellProcess, ShellRunOptions } from '@deepseek-ai/dsh-shell'
import { z } from 'zod'
import { commandEnv } from './env'
import { spawnGroup } from './spawn-group'
import { configOf } from '@deepseek-ai/dsh-tools/config'

export const Config = z
  .object({
    /** Variable names never passed to a command (DEEPSEEK_API_KEY always is hidden). */
    hideEnv: z.array(z.string()).default([]),
    /** Secret values (API keys the app was given): no variable holding one is passed on. */
    secrets: z.array(z.string()).default([]),
    /** Names passed on although they look like secrets (`GITHUB_TOKEN`): the person's choice. */
    passEnv: z.array(z.string()).default([]),
    /** Milliseconds between SIGTERM and SIGKILL when a process group is ended. */
    killGraceMs: z.number().int().positive().default(3000),
    /** The shell program. */
    bash: z.string().default('bash'),
  })
  .prefault({})

export type LocalShellConfig = z.input<typeof Config>

export default class LocalShell extends Shell {
  static Config = Config

  private readonly config: z.output<typeof Config>
  private readonly running = new Set<ShellProcess>()
  private disposed = false

  constructor(ctx: Context, config: LocalShellConfig) {
    super(ctx)
    // Cordis validated `config` against Config when it loaded the service: defaults are in.
    this.config = configOf(Config, config)
    ctx.effect(() => () => this.disposeAll(), 'shell processes')
  }

  /** The argv that runs `command`: a wrapping provider puts its own program in front. */
  argvOf(command: string): string[] {
    return [this.config.bash, '-c', command]
  }

  /** The whole environment of a command run with `add`. */
  envOf(add?: Readonly<Record<string, string>>): Record<string, string> {
    const { hideEnv, secrets, passEnv } = this.config
    return commandEnv(process.env, { hide: hideEnv, secrets, pass: passEnv, ...(add && { add }) })
  }

  start(options: ShellRunOptions): ShellProcess {
    if (this.disposed) {
      throw new ShellError('SHELL_DISPOSED', 'The shell was disposed; nothing more runs.')
    }
    const started = spawnGroup(this.argvOf(options.command), {
      cwd: options.cwd,
      env: this.envOf(options.env),
      killGraceMs: this.config.killGraceMs,
      ...(options.signal && { signal: options.signal }),
      ...(options.timeout !== undefined && { timeout: options.timeout }),
      ...(options.onOutput && { onOutput: options.onOutput }),
    })
    this.running.add(started)
    void started.exited.then(() => this.running.delete(started))
    return started
  }

  private async disposeAll(): Promise<void> {
    this.disposed = true
    const running = [...this.running]
    for (const process of running) process.kill()
    await Promise.all(running.map((process) => process.exited))
  }
}

export { spawnGroup } from './spawn-group'
export { groupAlive } from './group-alive'
export type { SpawnGroupOptions } from './spawn-group'
export { commandEnv, isSecretName, SECRET_NAME, SHELL_ENV_ADDITIONS, SHELL_HIDDEN_ENV } from './env'
export type { CommandEnvOptions } from './env'
