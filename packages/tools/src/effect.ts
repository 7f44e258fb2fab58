// A call's effect: what it does to the world, the one field policy reads (the permission
// gate, the agent's side-by-side scheduling). A tool says it through its `access` hook; for a
// tool that says nothing, the default follows what its card draws, and a card that draws no
// read and no change (`think`, `other`, none) counts as running code, so it is asked, never
// waved through. Pure; Cordis-free.
import type { ToolCallAccess, ToolEffect, ToolKind } from './types'

/** The call's effect: its access hook's, else the default for its card's kind. */
export function callEffect(
  access: ToolCallAccess | undefined,
  kind: ToolKind | undefined,
): ToolEffect {
  return access?.effect ?? defaultEffect(kind)
}

/** `read`/`search` read, `edit`/`delete`/`move` write, `fetch` reaches the network, else execute. */
export function defaultEffect(kind: ToolKind | undefined): ToolEffect {
  if (kind === 'read' || kind === 'search') return 'read'
  if (kind === 'edit' || kind === 'delete' || kind === 'move') return 'write'
  if (kind === 'fetch') return 'network'
  return 'execute'
}
