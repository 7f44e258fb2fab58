// Which addresses a fetch may reach: public unicast only. Loopback, private (RFC 1918, unique
// local), link-local (cloud metadata at 169.254.169.254 among them), carrier-grade NAT,
// unspecified, multicast, broadcast, reserved and documentation ranges are refused, and an
// IPv4 address inside IPv6 (mapped `::ffff:127.0.0.1`, NAT64, 6to4, Teredo) is judged as the
// IPv4 address it carries. Pure: no I/O.
import ipaddr from 'ipaddr.js'

/** Host names that are metadata endpoints whatever they resolve to. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data'])

/**
 * Why `address` (an IP literal) may not be fetched from, as a phrase (`a loopback address`,
 * `a private address`…), or undefined for a public unicast address.
 */
export function nonPublicRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address'
  const parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6') return ipv6Range(parsed as ipaddr.IPv6)
  return ipv4Range(parsed as ipaddr.IPv4)
}

function ipv4Range(ip: ipaddr.IPv4): string | undefined {
  const range = ip.range()
  if (range === 'unicast') return undefined
  return phrase(range)
}

function ipv6Range(ip: ipaddr.IPv6): string | undefined {
  const embedded = embeddedIpv4(ip)
  if (embedded !== undefined) return ipv4Range(embedded)
  const range = ip.range()
  if (range === 'unicast') return undefined
  return phrase(range)
}

/** The IPv4 address an IPv6 one carries: mapped, compatible, NAT64, 6to4, Teredo. */
function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address()
  const parts = ip.parts
  const bytes = ip.toByteArray()
  const range = ip.range()
  if (range === 'rfc6052' || range === 'rfc6145')
    return ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4
  // ::a.b.c.d (IPv4-compatible, deprecated but still routed by some stacks)
  if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7] > 1)) {
    return ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4
  }
  if (range === '6to4') return ipaddr.fromByteArray(bytes.slice(2, 6)) as ipaddr.IPv4
  if (range === 'teredo') {
    // The client's address is stored inverted in the last 32 bits.
    return ipaddr.fromByteArray(bytes.slice(12).map((byte) => byte ^ 0xff)) as ipaddr.IPv4
  }
  return undefined
}

const PHRASES: Record<string, string> = {
  linkLocal: 'a link-local address (where cloud metadata lives)',
  carrierGradeNat: 'a carrier-grade NAT address',
  uniqueLocal: 'a private (unique local) address',
  unspecified: 'an unspecified address',
}

/** `loopback` → `a loopback address`. */
function phrase(range: string): string {
  return PHRASES[range] ?? `a ${range.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()} address`
}

/** `host` without IPv6 brackets, lower-cased, without a trailing dot. */
export function bareHost(host: string): string {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  return unbracketed.toLowerCase().replace(/\.$/, '')
}

/** A host name refused before resolution: `localhost` and its subdomains, metadata names. */
export function nonPublicName(host: string): string | undefined {
  const name = bareHost(host)
  if (name === 'localhost' || name.endsWith('.localhost')) return 'a loopback name'
  if (METADATA_NAMES.has(name)) return 'a cloud metadata name'
  return undefined
}

export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(bareHost(host))
}
