// PermissionGate: the `tools/execute` listener's flow for one call. It finds the session's
// mode and roots, classifies the call (its effect from the tool's access hook, scope from real
// paths), looks up the table, and runs the call, refuses it, or asks the person. Not the table
// (modes.ts), the scope rule (scope.ts) or the asking (ask.ts).
import { callEffect } from '@deepseek-ai/dsh-tools'
import type {
  ToolCallAccess,
  ToolExecution,
  ToolExecutionResult,
  ToolLocation,
  ToolSession,
} from '@deepseek-ai/dsh-tools'
import { askPerson } from './ask'
import type { PermissionHost } from './host'
import type { PermissionAlways } from './ask'
import { refusedError } from './messages'
import { decide, decideNetwork, isPermissionModeId } from './modes'
import type { PermissionModeId } from './modes'
import { isInsideRoots, linkedTargets, realRoots } from './scope'
import { PermissionState } from './state'

/** The parsed config the gate works from. */
export interface PermissionGateOptions {
  defaultMode: PermissionModeId
  unanswered: 'deny' | 'allow'
}

export class PermissionGate {
  private readonly state = new PermissionState()

  constructor(
    private readonly host: PermissionHost,
    private readonly options: PermissionGateOptions,
  ) {}

  async execute(
    exec: ToolExecution,
    next: () => Promise<ToolExecutionResult>,
  ): Promise<ToolExecutionResult> {
    // A child session works under its root's mode and "always allow" memory: its scope's.
    const own = exec.session
    const { scope } = own
    const mode = this.modeOf(scope.mode)
    // The hot path for hosts that want no questions: no presentation, no I/O.
    if (mode === 'full-access') return next()
    const cwd = own.header.cwd
    const id = scope.id
    const { tools } = this.host
    const presentation = tools.presentCall(exec.name, exec.arguments, { cwd, session: id })
    const hook = tools.get(exec.name, id)?.access
    const access = hook === undefined ? undefined : await tools.access(exec)
    const effect = callEffect(access, presentation?.kind)
    const places = access?.scope?.map((path) => ({ path })) ?? presentation?.locations
    // A call that reaches the network touches no root: it is judged by its effect alone.
    const network = effect === 'network'
    const inside = network ? false : await this.insideRoots(own, places, exec, effect === 'write')
    const askAlways = access?.askAlways === true
    const decision = askAlways
      ? 'ask'
      : network
        ? decideNetwork(mode)
        : decide(mode, effect, inside, access?.confined)
    if (decision === 'allow') return next()
    if (decision === 'refuse') throw refusedError(mode, effect, inside, access?.confined)
    // "Always allow" only turns an ask into an allow, and only inside the roots (or for the
    // network, where the call's own keys say what is remembered: a fetch's host).
    const always =
      askAlways || access?.choices !== undefined || (!inside && !network)
        ? undefined
        : alwaysOf(exec.name, access)
    if (always !== undefined && this.state.isAlwaysAllowed(scope, always.keys)) return next()
    const { unanswered } = this.options
    const choices = access?.choices
    const linked = effect === 'write' ? await linkedTargets(this.host.fs, places, cwd, exec) : []
    const question = {
      exec,
      presentation,
      cwd,
      effect,
      inside,
      always,
      unanswered,
      choices,
      linked,
    }
    const grant = await askPerson(this.host, question)
    if (grant.kind === 'allow_always' && always !== undefined) {
      this.state.allowAlways(scope, always.keys)
    }
    // A call with its own options reads the person's pick.
    if (choices !== undefined) exec.choice = grant.optionId
    return next()
  }

  /**
   * Readies a session before its first call, off every path a person waits on: its roots'
   * real paths, and the scope check run once on its folder (the code a first call would
   * otherwise run for the first time). Asks nothing and never rejects.
   */
  async warmUp(session: ToolSession): Promise<void> {
    try {
      await this.insideRoots(session, [{ path: session.header.cwd }], undefined, false)
    } catch {
      // A call meets the same failure and is judged outside.
    }
  }

  /** Forgets every session's state (the plugin is disposed). */
  clear(): void {
    this.state.clear()
  }

  private modeOf(mode: string | undefined): PermissionModeId {
    return isPermissionModeId(mode) ? mode : this.options.defaultMode
  }

  /** Inside the session's roots (default: its cwd). */
  private async insideRoots(
    session: ToolSession,
    locations: readonly ToolLocation[] | undefined,
    call: object | undefined,
    change: boolean,
  ): Promise<boolean> {
    const { cwd, roots = [cwd] } = session.header
    const real = await this.state.realRoots(session, roots, () =>
      realRoots(this.host.fs, roots, cwd),
    )
    return isInsideRoots(this.host.fs, locations, cwd, real, call, change)
  }
}

/** What "always allow" remembers for a call: the tool's own keys, else the tool's name. */
function alwaysOf(tool: string, access: ToolCallAccess | undefined): PermissionAlways {
  if (access?.always !== undefined) return access.always
  return { keys: [tool], label: `${tool} in this session` }
}
