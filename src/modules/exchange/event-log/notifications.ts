import type { StreamKey } from './event-log.ts'

// NOTIFY payloads stay under PostgreSQL's 8000 bytes.
const MAX_NOTIFY_PAYLOAD = 7900

/**
 * A wake-up's payload: `<instance> <key> <key> …`, naming the process that sent it (so it skips
 * its own) and the streams that have new events; split so each payload fits a NOTIFY
 * (docs/events.md, "Delivery").
 */
export function encodeNotifications(instance: string, keys: readonly StreamKey[]): string[] {
  const payloads: string[] = []
  let current = instance
  for (const key of keys) {
    if (current.length + 1 + key.length > MAX_NOTIFY_PAYLOAD) {
      payloads.push(current)
      current = instance
    }
    current += ` ${key}`
  }
  if (current !== instance) payloads.push(current)
  return payloads
}

/** The inverse of `encodeNotifications` for one payload. */
export function decodeNotification(payload: string): { instance: string; keys: StreamKey[] } {
  const [instance = '', ...keys] = payload.split(' ')
  return { instance, keys: keys as StreamKey[] }
}
