// The web seam's options, validated by Cordis when the service loads.
import { z } from 'zod'
import type { WebResolver } from './types'

export const Config = z
  .object({
    allowPrivate: z
      .boolean()
      .default(false)
      .describe('Fetch from loopback, private, link-local and metadata addresses too.'),
    timeoutMs: z.number().int().min(1).default(30_000).describe('The whole fetch, in ms.'),
    maxBytes: z
      .number()
      .int()
      .min(1)
      .default(5 * 1024 * 1024)
      .describe('Body bytes read at most; the rest is not downloaded.'),
    maxRedirects: z
      .number()
      .int()
      .min(0)
      .max(20)
      .default(5)
      .describe('Same-origin redirects followed.'),
    markdownMemoryMb: z
      .number()
      .int()
      .min(1)
      .default(256)
      .describe("The heap of the worker that turns a page's HTML into Markdown, in MiB."),
    userAgent: z.string().min(1).default('Mozilla/5.0 (compatible; dsh coding agent)'),
    proxyEnv: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        'Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default: the process environment).',
      ),
    resolver: z
      .custom<WebResolver>((value) => typeof value === 'function', 'a resolver function')
      .optional()
      .describe('Resolves host names (default: the system resolver, as sockets use).'),
  })
  .prefault({})

export type WebConfig = z.input<typeof Config>
