import { isIP } from 'node:net'

/**
 * The key an address is rate limited under. One IPv6 host usually holds a whole /64, so its
 * addresses share one key; otherwise a caller could step through 2^64 addresses.
 */
export function ipRateLimitKey(ip: string): string {
  if (isIP(ip) !== 6) return ip
  return `${expandIpv6(ip).slice(0, 4).join(':')}::/64`
}

function expandIpv6(ip: string): string[] {
  const toGroups = (part: string): string[] => {
    if (part === '') return []
    const groups = part.split(':')
    const last = groups[groups.length - 1]!
    // An embedded IPv4 tail is two groups.
    if (last.includes('.')) groups.splice(groups.length - 1, 1, '0', '0')
    return groups
  }
  const [head, tail] = ip.split('::') as [string, string | undefined]
  const headGroups = toGroups(head)
  const tailGroups = tail === undefined ? [] : toGroups(tail)
  const zeros = Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0')
  return [...headGroups, ...zeros, ...tailGroups].map((g) => g.replace(/^0+(?=.)/, ''))
}
