import { isIP } from 'node:net'

/**
 * The caller's address. Without trusted proxies it is the socket's peer: `X-Forwarded-For` is
 * anyone's to write. Behind `hops` trusted proxies, each of which appends the address it received
 * the request from, the entry `hops` places from the right is the one the outermost trusted proxy
 * saw; entries further left were written by the caller and are ignored.
 */
export function clientIp(socketAddress: string | undefined, forwardedFor: string | null, hops: number): string {
  const peer = normaliseIp(socketAddress) ?? 'unknown'
  if (hops === 0 || !forwardedFor) return peer
  const entries = forwardedFor.split(',').map((entry) => entry.trim())
  return normaliseIp(entries[Math.max(0, entries.length - hops)]) ?? peer
}

/** `::ffff:10.0.0.1` → `10.0.0.1`; `[2001:db8::1]:443` → `2001:db8::1`; `10.0.0.1:80` → `10.0.0.1`; anything else → undefined. */
export function normaliseIp(value: string | undefined): string | undefined {
  if (!value) return undefined
  let ip = value.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(ip)
  if (bracketed) ip = bracketed[1]!
  else if (/^[\d.]+:\d+$/.test(ip)) ip = ip.slice(0, ip.lastIndexOf(':'))
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped) ip = mapped[1]!
  const version = isIP(ip)
  if (version === 4) return ip
  if (version === 6) return ip.toLowerCase()
  return undefined
}
