// A context with a real ToolRegistry, the probe tools, a file system (MemoryFileSystem at /w,
// or LocalFileSystem on a real directory), sessions whose `ask` channel records each request
// and replies as the test sets, and the permission plugin under test.
import { Context } from 'cordis'
import type { Fiber } from 'cordis'
import { MemoryFileSystem } from '@deepseek-ai/dsh-fs/testing'
import LocalFileSystem from '@deepseek-ai/dsh-fs-local'
import ToolRegistry from '@deepseek-ai/dsh-tools'
import type {
  ToolExecutionResult,
  ToolPermissionAnswer,
  ToolPermissionRequest,
  ToolSession,
  ToolSessionChannels,
  ToolSessionHeader,
} from '@deepseek-ai/dsh-tools'
import { testSession } from '@deepseek-ai/dsh-tools/testing'
import * as Permission from '../../src/index'
import type { PermissionConfig } from '../../src/index'
import { registerProbeTools } from './tools'
import type { ToolProbe } from './tools'

/** An answer, or `never` (no answer at all). */
export type Reply = ToolPermissionAnswer | 'never'

export const ALLOW_ONCE: ToolPermissionAnswer = { outcome: 'selected', optionId: 'allow_once' }
export const ALLOW_ALWAYS: ToolPermissionAnswer = { outcome: 'selected', optionId: 'allow_always' }
export const REJECT: ToolPermissionAnswer = { outcome: 'selected', optionId: 'reject_once' }

export interface HarnessOptions {
  config?: PermissionConfig
  /** A real directory for LocalFileSystem; else MemoryFileSystem with cwd `/w`. */
  disk?: string
  /** Sessions without an `ask` channel: the unanswered default decides. */
  noAsker?: boolean
}

export interface CallOptions {
  session?: ToolSession
  signal?: AbortSignal
}

const FIBER_ACTIVE = 2

let sessions = 0

/** The person the sessions ask: the harness made last's (tests of a file run one at a time). */
let person: Harness | undefined

/** The channels of every test session: `ask` reaches the person, unless they cannot be asked. */
const channels: ToolSessionChannels = {
  get ask() {
    return person?.ask
  },
}

/** A session whose header has `cwd` and the given fields. */
export function session(cwd: string, header: Partial<ToolSessionHeader> = {}): ToolSession {
  sessions += 1
  return testSession({ id: `s${sessions}`, cwd, ...header, channels })
}

/** A session with no roots and no mode: the host's default mode, nothing inside. */
export function rootless(): ToolSession {
  return session('/', { roots: [] })
}

export class Harness {
  readonly probe: ToolProbe = { ran: [] }
  /** The requests the sessions' `ask` channel carried, in order. */
  readonly asked: ToolPermissionRequest[] = []
  /** How the person replies. */
  reply: Reply = ALLOW_ONCE
  /** The sessions' `ask` channel; none when nobody can be asked. */
  ask: ((request: ToolPermissionRequest) => Promise<ToolPermissionAnswer>) | undefined
  private calls = 0

  /** The permission plugin's fiber, once loaded. */
  fiber!: Fiber

  constructor(readonly ctx: Context) {}

  /** The MemoryFileSystem (of a harness made without `disk`), to seed files. */
  get memory(): MemoryFileSystem {
    return this.ctx.fs as MemoryFileSystem
  }

  /** Runs a tool with `{ file_path }` (a string) or the given arguments. */
  call(name: string, args: string | object, how: CallOptions = {}): Promise<ToolExecutionResult> {
    this.calls += 1
    return this.ctx.tools.execute({
      callId: `c${this.calls}`,
      name,
      arguments: typeof args === 'string' ? { file_path: args } : args,
      session: how.session ?? rootless(),
      ...(how.signal === undefined ? {} : { signal: how.signal }),
    })
  }

  /** What became of a call: did a tool run, how often was the person asked, which code. */
  outcome(result: ToolExecutionResult) {
    return { ran: this.probe.ran.length > 0, asked: this.asked.length, code: result.error?.code }
  }

  /** Forgets what ran and what was asked, for the next call. */
  reset(): void {
    this.probe.ran.length = 0
    this.asked.length = 0
  }
}

/** The MemoryFileSystem at /w (seed it with putText), or LocalFileSystem on `disk`. */
export async function makeHarness(options: HarnessOptions = {}): Promise<Harness> {
  const ctx = new Context()
  if (options.disk === undefined) await ctx.plugin(MemoryFileSystem, { cwd: '/w' })
  else await ctx.plugin(LocalFileSystem, { cwd: options.disk })
  await ctx.plugin(ToolRegistry)
  const harness = new Harness(ctx)
  person = harness
  if (!options.noAsker) {
    harness.ask = (request) => {
      harness.asked.push(request)
      if (harness.reply === 'never') return new Promise<never>(() => undefined)
      return Promise.resolve(harness.reply)
    }
  }
  harness.fiber = await loadPermission(ctx, options.config)
  registerProbeTools(ctx.tools, harness.probe)
  return harness
}

/** Loads the plugin under test and checks that it came up. */
export async function loadPermission(ctx: Context, config?: PermissionConfig): Promise<Fiber> {
  const fiber = await ctx.plugin(Permission, config)
  if (fiber.state !== FIBER_ACTIVE) throw new Error(`permission did not start (${fiber.state})`)
  return fiber
}

/** The text the model reads for a result. */
export function textOf(result: ToolExecutionResult): string {
  return result.content.map((block) => block.text).join('')
}
