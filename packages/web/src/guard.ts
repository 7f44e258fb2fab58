// The private-address guard: a host is resolved once, every address it resolves to is checked,
// and the connection is made to the checked address only (the `lookup` handed to the socket
// returns what was checked, so a name cannot resolve to one address for the check and another
// for the connection). An IP literal is checked as it is. `allowPrivate` turns the checks off
// (the resolution stays). Not the fetch (./fetch-page.ts) nor the ranges (./address.ts).
import type { LookupAddress } from 'node:dns'
import type { LookupFunction } from 'node:net'
import { bareHost, isIpLiteral, nonPublicName, nonPublicRange } from './address'
import { WebError } from './errors'
import type { WebResolver } from './types'

/** The system resolver (`getaddrinfo`, as the socket would use): every address of a name. */
export const systemResolver: WebResolver = async (hostname) => {
  // Loaded at the first lookup, not at start.
  const { lookup } = await import('node:dns/promises')
  const found = await lookup(hostname, { all: true, verbatim: true })
  return found.map(({ address, family }) => ({ address, family }))
}

/** Refuses a host that is not public before anything is resolved: a literal, `localhost`. */
export function checkHostLiteral(host: string): void {
  const name = bareHost(host)
  const named = nonPublicName(name)
  if (named !== undefined) throw privateError(host, named)
  if (isIpLiteral(name)) {
    const range = nonPublicRange(name)
    if (range !== undefined) throw privateError(host, range)
  }
}

/** Resolves `host` and checks every address; the checked addresses, in resolver order. */
export async function resolveChecked(
  host: string,
  resolver: WebResolver,
  allowPrivate: boolean,
): Promise<LookupAddress[]> {
  const name = bareHost(host)
  if (!allowPrivate) checkHostLiteral(name)
  if (isIpLiteral(name)) return [{ address: name, family: name.includes(':') ? 6 : 4 }]
  let found: LookupAddress[]
  try {
    found = await resolver(name)
  } catch (error) {
    throw new WebError(
      'WEB_UNREACHABLE',
      `The host ${name} could not be resolved (${(error as Error).message}). Check the URL.`,
      { cause: error },
    )
  }
  if (found.length === 0) {
    throw new WebError('WEB_UNREACHABLE', `The host ${name} has no address. Check the URL.`)
  }
  if (!allowPrivate) {
    for (const { address } of found) {
      const range = nonPublicRange(address)
      if (range !== undefined) throw privateError(host, range, address)
    }
  }
  return found
}

/**
 * A `lookup` for `net.connect`/`tls.connect`: resolves through `resolver`, refuses a name with
 * any non-public address (unless `allowPrivate`), and hands the socket the checked addresses.
 */
export function guardedLookup(resolver: WebResolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolveChecked(hostname, resolver, allowPrivate).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined
        const usable = wanted === undefined ? found : found.filter((a) => a.family === wanted)
        if (usable.length === 0) {
          callback(
            new WebError('WEB_UNREACHABLE', `${hostname} has no IPv${wanted} address.`),
            '',
            0,
          )
        } else if (options.all === true) {
          callback(null, usable)
        } else {
          callback(null, usable[0]!.address, usable[0]!.family)
        }
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    )
  }
}

function privateError(host: string, range: string, address?: string): WebError {
  const via = address === undefined ? '' : ` (it resolves to ${address})`
  return new WebError(
    'WEB_PRIVATE_ADDRESS',
    `Refused to fetch from ${bareHost(host)}${via}: ${range}, not a public one. ` +
      'Fetching from local and private networks is off; the person can allow it by starting ' +
      'the agent with --web-allow-private.',
  )
}
