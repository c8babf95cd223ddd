import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/**
 * Addresses a webhook may not reach unless WEBHOOK_ALLOW_PRIVATE=true (docs/webhooks.md,
 * "Safety"): the service's own host and network, and cloud metadata. Checked on the address a
 * connection is about to use, so a name that resolves to one of them (DNS rebinding included) is
 * refused at connect time, not only when the endpoint is saved.
 */
const refused = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, 169.254.169.254 metadata among them
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  refused.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local, fd00:ec2::254 metadata among them
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  refused.addSubnet(network, prefix, 'ipv6')
}

const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i

/** Whether `address` (an IP literal) is one a webhook may not reach. */
export function isRefusedAddress(address: string): boolean {
  const mapped = MAPPED_V4.exec(address)?.[1]
  if (mapped) return refused.check(mapped, 'ipv4')
  const family = isIP(address)
  if (family === 4) return refused.check(address, 'ipv4')
  if (family === 6) return refused.check(address, 'ipv6')
  return true
}

/** A URL's host as an IP literal (`[::1]` → `::1`), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
  return isIP(bare) ? bare : undefined
}

export class RefusedAddressError extends Error {
  readonly code = 'EWEBHOOKADDRESS'
}

/**
 * A `lookup` for the HTTP client that resolves as usual, then refuses the connection when any
 * address the name gave is a refused one.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0)
    const bad = addresses.find((a) => isRefusedAddress(a.address))
    if (bad) return callback(new RefusedAddressError(`${hostname} resolves to ${bad.address}, a private or reserved address`), '', 0)
    if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses)
    const first = addresses[0]!
    callback(null, first.address, first.family)
  })
}
