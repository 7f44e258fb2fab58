// How the permission layer judges the web tools: each call reaches the network (its own
// effect, not a read of the workspace). A fetch is remembered by its origin (scheme, host and
// port), so "always allow" covers that origin for the session and no other: another port of
// the same host is another service. Web searches are remembered as one.
import type { ToolCallAccess } from '@deepseek-ai/dsh-tools'
import type { FetchArgs } from './input'

/** The origin a fetch goes to (`https://docs.example.com`, lower case), or undefined. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url)
    return parsed.hostname === '' ? undefined : parsed.origin
  } catch {
    return undefined
  }
}

export function fetchAccess(args: FetchArgs): ToolCallAccess {
  const origin = originOf(args.url)
  if (origin === undefined) return { effect: 'network' }
  return {
    effect: 'network',
    always: { keys: [`web_fetch:${origin}`], label: `fetching from ${origin}` },
  }
}

export function searchAccess(): ToolCallAccess {
  return {
    effect: 'network',
    always: { keys: ['web_search'], label: 'web searches in this session' },
  }
}
