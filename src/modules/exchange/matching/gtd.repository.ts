import { sql } from 'kysely'

import type { Db } from '../../../db/database.ts'

/** `ms` since the epoch as a `timestamp(6)` text in UTC, as `expire_at` is stored. */
export const utcTimestamp = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '')

/**
 * The symbols with a gtd order (resting or a pending stop) whose `expire_at` is at or before
 * `nowMs`: the ones the expiry sweep sends a pass to (docs/matching.md, "Stop orders and good
 * till date"). Reads the partial index of working gtd orders by expiry, so it costs the due ones.
 */
export async function symbolsWithDueExpiries(db: Db, nowMs: number): Promise<string[]> {
  const { rows } = await sql<{ symbol: string }>`
    select distinct symbol from orders
    where time_in_force = 'gtd' and status in ('open', 'partially_filled', 'pending') and expire_at <= ${utcTimestamp(nowMs)}::timestamp(6)`.execute(db)
  return rows.map((row) => row.symbol)
}
