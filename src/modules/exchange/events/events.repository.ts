import type { Db } from '../../../db/database.ts'
import { marketStream, type StreamKey, tenantStream } from '../event-log/event-log.ts'
import type { TenantEventType } from './event-payloads.ts'

/** An event as stored: `payload` is its JSON body exactly as delivered. */
export interface StoredEvent {
  sequence: number
  type: string
  created_at: string
  payload: string
}

// Stream keys and the channel are the event log's (docs/events.md); readers name them from here too.
export { EVENTS_CHANNEL, marketStream, type StreamKey, tenantStream } from '../event-log/event-log.ts'

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
