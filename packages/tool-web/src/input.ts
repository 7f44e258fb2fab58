// The inputs of web_fetch and web_search: the schemas the model is given and the types the
// tools and their presenters take.
import { z } from 'zod'

/** Queries one web_search call may run at once. */
export const MAX_QUERIES = 3

export const fetchInput = z.object({
  url: z.string().min(1).describe('The http(s) URL of the page to read.'),
})

export type FetchArgs = z.infer<typeof fetchInput>

export const searchInput = z.object({
  query: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1).max(MAX_QUERIES)])
    .describe(`What to search the web for: one query, or up to ${MAX_QUERIES} run at once.`),
})

export type SearchArgs = z.infer<typeof searchInput>

/** The queries of a call, as a list. */
export function queriesOf(args: SearchArgs): string[] {
  return typeof args.query === 'string' ? [args.query] : args.query
}
