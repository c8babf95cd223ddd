import { sql } from 'kysely'

import type { Db } from '../../../db/database.ts'
import type { TenantEventType } from './event-payloads.ts'

/** An event as stored: `payload` is its JSON body exactly as delivered. */
export interface StoredEvent {
  sequence: number
  type: string
  created_at: string
  payload: string
}

/**
 * A stream's name: `t:<tenant id>` for a tenant's order events, `m:<symbol>` for a symbol's market
 * events. One text names it in the hub, in notifications and in logs.
 */
export type StreamKey = `t:${string}` | `m:${string}`

export const tenantStream = (tenantId: string): StreamKey => `t:${tenantId}`
export const marketStream = (symbol: string): StreamKey => `m:${symbol}`

/** The channel the matching passes notify on PostgreSQL (docs/events.md). */
export const EVENTS_CHANNEL = 'exchange_events'

/**
 * A stream's events after `after`, in sequence order, at most `limit`; of a tenant's, none of the
 * `skipped` types (a page of what its caller may see, not fewer).
 */
export async function readEvents(db: Db, key: StreamKey, after: number, limit: number, skipped: readonly TenantEventType[] = []): Promise<StoredEvent[]> {
  const name = key.slice(2)
  if (key.startsWith('t:')) {
    let q = db.selectFrom('tenant_events').select(['sequence', 'type', 'created_at', 'payload']).where('tenant_id', '=', name).where('sequence', '>', after)
    if (skipped.length > 0) q = q.where('type', 'not in', skipped)
    return q.orderBy('sequence').limit(limit).execute()
  }
  return db
    .selectFrom('market_events')
    .select(['sequence', 'type', 'created_at', 'payload'])
    .where('symbol', '=', name)
    .where('sequence', '>', after)
    .orderBy('sequence')
    .limit(limit)
    .execute()
}

/** The first sequence kept after `after` (undefined when none is), to tell a purged stretch from the end of the stream. */
export async function firstSequenceAfter(db: Db, key: StreamKey, after: number): Promise<number | undefined> {
  const [first] = await readEvents(db, key, after, 1)
  return first?.sequence
}

/**
 * Each stream's last sequence (0 before its first event), in one statement per kind: what the hub
 * compares with what it delivered, so a lost notification costs at most one poll.
 */
export async function lastSequences(db: Db, keys: readonly StreamKey[]): Promise<Map<StreamKey, number>> {
  const tenants = keys.filter((key) => key.startsWith('t:')).map((key) => key.slice(2))
  const symbols = keys.filter((key) => key.startsWith('m:')).map((key) => key.slice(2))
  const [tenantRows, symbolRows] = await Promise.all([
    tenants.length ? db.selectFrom('tenant_event_counters').select(['tenant_id', 'last_sequence']).where('tenant_id', 'in', tenants).execute() : [],
    symbols.length ? db.selectFrom('symbol_books').select(['symbol', 'market_sequence']).where('symbol', 'in', symbols).execute() : [],
  ])
  const last = new Map<StreamKey, number>(keys.map((key) => [key, 0]))
  for (const row of tenantRows) last.set(tenantStream(row.tenant_id), row.last_sequence)
  for (const row of symbolRows) last.set(marketStream(row.symbol), row.market_sequence)
  return last
}

/** One stream's last sequence (0 before its first event). */
export async function lastSequence(db: Db, key: StreamKey): Promise<number> {
  return (await lastSequences(db, [key])).get(key) ?? 0
}

/**
 * Wakes every process's streams of these keys once the surrounding transaction commits (PostgreSQL
 * delivers a NOTIFY only then, and drops it on rollback). Each payload is under NOTIFY's 8000 bytes.
 */
export async function notifyEvents(db: Db, payloads: readonly string[]): Promise<void> {
  if (payloads.length === 0) return
  await sql`select pg_notify(${EVENTS_CHANNEL}, p) from unnest(${payloads}::text[]) as p`.execute(db)
}

// Rows per delete statement: a week of a busy exchange is purged in short statements, not one
// that holds its locks and its WAL for minutes.
const PURGE_BATCH = 10_000

/** Deletes events created before `cutoff` (a `timestamp(6)` text in UTC), in batches; returns how many went. */
export async function deleteEventsBefore(db: Db, cutoff: string): Promise<number> {
  let deleted = 0
  for (const [table, key] of [
    ['tenant_events', 'tenant_id'],
    ['market_events', 'symbol'],
  ] as const) {
    for (;;) {
      const result = await sql`
        delete from ${sql.table(table)} where (${sql.ref(key)}, sequence) in (
          select ${sql.ref(key)}, sequence from ${sql.table(table)} where created_at < ${cutoff}::timestamp(6) limit ${PURGE_BATCH})`.execute(db)
      const count = Number(result.numAffectedRows ?? 0n)
      deleted += count
      if (count < PURGE_BATCH) break
    }
  }
  return deleted
}
