/**
 * Time on the market's clock (docs/market-data.md, "Market day"): candle intervals are aligned to
 * the wall clock of `MARKET_TIMEZONE` (a `1h` candle in Asia/Tehran opens at :30 UTC, a `1d`
 * candle at the market's midnight), whatever the zone's offset, including offsets that are not
 * whole hours. Pure functions of an instant (milliseconds since the epoch, UTC) and a zone name.
 */

export const DEFAULT_MARKET_TIMEZONE = 'Asia/Tehran'

export const CANDLE_INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const
export type CandleInterval = (typeof CANDLE_INTERVALS)[number]

/** Each interval's length on the market's wall clock, in minutes (each divides a day). */
export const INTERVAL_MINUTES: Record<CandleInterval, number> = { '1m': 1, '5m': 5, '15m': 15, '1h': 60, '4h': 240, '1d': 1440 }

const MINUTE = 60_000

const formatters = new Map<string, Intl.DateTimeFormat>()

/** Whether the runtime knows the zone (`Asia/Tehran`, `UTC`, …). */
export function isTimeZone(zone: string): boolean {
  try {
    formatterOf(zone)
    return true
  } catch {
    return false
  }
}

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    })
    formatters.set(zone, formatter)
  }
  return formatter
}

// Offsets change only on whole minutes: one lookup per zone and minute, the last few thousand kept.
const offsets = new Map<string, number>()
const MAX_CACHED_OFFSETS = 4096

/** The zone's offset from UTC at `utcMs`, in milliseconds (Asia/Tehran: +3:30 → 12,600,000). */
export function zoneOffset(zone: string, utcMs: number): number {
  const minute = Math.floor(utcMs / MINUTE)
  const key = `${zone}\n${minute}`
  const cached = offsets.get(key)
  if (cached !== undefined) return cached
  const parts: Record<string, number> = {}
  for (const part of formatterOf(zone).formatToParts(minute * MINUTE)) if (part.type !== 'literal') parts[part.type] = Number(part.value)
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!)
  const offset = wall - minute * MINUTE
  if (offsets.size >= MAX_CACHED_OFFSETS) offsets.clear()
  offsets.set(key, offset)
  return offset
}

/** The instant a wall-clock time of the zone names (its first occurrence when clocks went back). */
export function wallToUtc(zone: string, wallMs: number): number {
  const guess = wallMs - zoneOffset(zone, wallMs)
  const second = wallMs - zoneOffset(zone, guess)
  // When clocks went back the wall time names two instants; the earlier one opens the interval.
  const earlier = wallMs - zoneOffset(zone, second - 3_600_000)
  return earlier < second && earlier + zoneOffset(zone, earlier) === wallMs ? earlier : second
}

export interface IntervalBounds {
  /** The interval's first instant. */
  open: number
  /** The next interval's first instant (the interval ends just before it). */
  next: number
}

/** The interval of `interval` that holds `utcMs`, aligned to the zone's wall clock. */
export function intervalAt(zone: string, interval: CandleInterval, utcMs: number): IntervalBounds {
  const size = INTERVAL_MINUTES[interval] * MINUTE
  const wall = utcMs + zoneOffset(zone, utcMs)
  const wallOpen = Math.floor(wall / size) * size
  return { open: wallToUtc(zone, wallOpen), next: wallToUtc(zone, wallOpen + size) }
}

/** The first instant of the market day holding `utcMs`. */
export function marketDayStart(zone: string, utcMs: number): number {
  return intervalAt(zone, '1d', utcMs).open
}

/** An instant as the database's `timestamp(6)` text in UTC: `2026-11-25 21:30:00.123000`. */
export function timestampOf(utcMs: number): string {
  const iso = new Date(utcMs).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000`
}

/** `timestamp(6)` text in UTC (as PostgreSQL prints it) → milliseconds since the epoch (microseconds dropped). */
export function instantOf(timestamp: string): number {
  const ms = Date.parse(`${timestamp.slice(0, 10)}T${timestamp.slice(11, 23)}Z`)
  if (Number.isNaN(ms)) throw new Error(`not a timestamp: ${timestamp}`)
  return ms
}

/** The last microsecond of an interval whose successor opens at `next`: `…:59.999999`. */
export function closeTimeOf(next: number): string {
  const iso = new Date(next - 1).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}999`
}
