// The ACP bridge plugin: `ctx.acp` serves the Agent Client Protocol over any ndjson stream,
// mapping ACP sessions onto `ctx.agents` and tool calls onto cards built from `ctx.tools`'
// presentations. Public face only: the plugin, its config and the re-exports.
import type { Stream } from '@agentclientprotocol/sdk'
import type { Context } from 'cordis'
import type { AcpServeHandle, AcpServeOptions } from './bridge'
import type { AcpSessionOpening } from './sessions/session-opening'
import { configOf } from '@deepseek-ai/dsh-tools'
import { z } from 'zod'
import { AcpServer } from './server'

declare module 'cordis' {
  interface Context {
    acp: AcpServer
  }

  interface Events {
    /**
     * emit: a session of a connection opened (session/new, /load, /resume), just after its
     * response: with the MCP servers it was opened with, a way to notify the person, and one
     * to be called at its close.
     */
    'acp/session-open'(session: AcpSessionOpening): void
  }
}

/** The version `initialize` reports unless configured. */
export const DSH_ACP_VERSION = '0.1.0'

export const name = 'acp'

export const inject = ['agents', 'tools']

const Mode = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string().optional(),
})

export const Config = z
  .object({
    /** `agentInfo` of the `initialize` response. */
    agentInfo: z
      .object({
        name: z.string().min(1).default('dsh'),
        title: z.string().min(1).optional(),
        version: z.string().min(1).default(DSH_ACP_VERSION),
      })
      .prefault({}),
    /**
     * The modes a session can be in (a permission layer's, e.g. `@deepseek-ai/dsh-permission`'s
     * PERMISSION_MODES); none: no modes are offered and session/set_mode is refused.
     */
    modes: z.array(Mode).default([]),
    /** The mode a new session starts in (one of `modes`); default: the first. */
    defaultMode: z.string().optional(),
    /**
     * The MCP transports `initialize` advertises besides stdio: set them when a listener of
     * `acp/session-open` connects the sessions' servers over them.
     */
    mcpCapabilities: z
      .object({ http: z.boolean().default(false), sse: z.boolean().default(false) })
      .prefault({}),
  })
  .refine(
    (config) =>
      config.defaultMode === undefined || config.modes.some((m) => m.id === config.defaultMode),
    { message: 'defaultMode must be the id of one of the modes', path: ['defaultMode'] },
  )
  .prefault({})

export type AcpConfig = z.input<typeof Config>

export function apply(ctx: Context, config: AcpConfig): void {
  const { agentInfo, modes, defaultMode, mcpCapabilities } = configOf(Config, config)
  const server = new AcpServer(ctx, {
    agentInfo,
    modes,
    defaultMode: defaultMode ?? modes[0]?.id,
    mcpCapabilities,
  })
  ctx.provide('acp', server)
  ctx.effect(() => () => server.closeAll(), 'acp connections')
}

/**
 * Serves one ACP client over `stream` with the bridge loaded in `ctx` or below it (same as
 * `ctx.acp.serve`, without the caller having to declare `acp` as an injection).
 */
export function serveAcp(
  ctx: Context,
  stream: Stream,
  options: AcpServeOptions = {},
): AcpServeHandle {
  const server: unknown = ctx.get('acp')
  if (!(server instanceof AcpServer)) {
    throw new Error('serveAcp: the acp plugin is not active in this context; load it first')
  }
  return server.serve(stream, options)
}

export type { AcpServer } from './server'
export type { AcpServeHandle, AcpServeOptions } from './bridge'
export type { AcpAuth, AcpAuthClient } from './wire/auth'
export type { AcpSessionFiles } from './sessions/editor-files'
export type { AcpNotice, AcpSessionOpening } from './sessions/session-opening'
export type { AcpElicit, AcpElicitAnswer, AcpElicitForm } from './sessions/elicit'
export { offersElicitation } from './sessions/elicit'
export { BUILT_IN_COMMANDS } from './sessions/session-commands'
