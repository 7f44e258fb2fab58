// How the permission layer judges the web tools: each call reaches the network (its own
// effect, not a read of the workspace). A fetch is remembered by its host, so "always allow"
// covers that host for the session and no other; web searches are remembered as one.
import type { ToolCallAccess } from '@deepseek-ai/dsh-tools'
import type { FetchArgs } from './input'

/** The host a fetch goes to, lower case, or undefined for a URL that does not parse. */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase() || undefined
  } catch {
    return undefined
  }
}

export function fetchAccess(args: FetchArgs): ToolCallAccess {
  const host = hostOf(args.url)
  if (host === undefined) return { effect: 'network' }
  return {
    effect: 'network',
    always: { keys: [`web_fetch:${host}`], label: `fetching from ${host}` },
  }
}

export function searchAccess(): ToolCallAccess {
  return {
    effect: 'network',
    always: { keys: ['web_search'], label: 'web searches in this session' },
  }
}
