import { sql } from 'kysely'

import type { Db } from '../../../db/database.ts'

/** An event as stored: `payload` is its JSON body exactly as delivered. */
export interface StoredEvent {
  sequence: number
  type: string
  created_at: string
  payload: string
}

/** A tenant's events after `after`, in sequence order, at most `limit`. */
export async function readTenantEvents(db: Db, tenantId: string, after: number, limit: number): Promise<StoredEvent[]> {
  return db
    .selectFrom('tenant_events')
    .select(['sequence', 'type', 'created_at', 'payload'])
    .where('tenant_id', '=', tenantId)
    .where('sequence', '>', after)
    .orderBy('sequence')
    .limit(limit)
    .execute()
}

/** A symbol's market events after `after`, in sequence order, at most `limit`. */
export async function readMarketEvents(db: Db, symbol: string, after: number, limit: number): Promise<StoredEvent[]> {
  return db
    .selectFrom('market_events')
    .select(['sequence', 'type', 'created_at', 'payload'])
    .where('symbol', '=', symbol)
    .where('sequence', '>', after)
    .orderBy('sequence')
    .limit(limit)
    .execute()
}

/** The tenant's last event sequence (0 before its first event). */
export async function lastTenantSequence(db: Db, tenantId: string): Promise<number> {
  const row = await db.selectFrom('tenant_event_counters').select('last_sequence').where('tenant_id', '=', tenantId).executeTakeFirst()
  return row?.last_sequence ?? 0
}

/** The symbol's last market sequence (0 before its first event). */
export async function lastMarketSequence(db: Db, symbol: string): Promise<number> {
  const row = await db.selectFrom('symbol_books').select('market_sequence').where('symbol', '=', symbol).executeTakeFirst()
  return row?.market_sequence ?? 0
}

/** Deletes events created before `cutoff` (a `timestamp(6)` text in UTC); returns how many went. */
export async function deleteEventsBefore(db: Db, cutoff: string): Promise<number> {
  const [tenant, market] = await Promise.all([
    sql`delete from tenant_events where created_at < ${cutoff}::timestamp(6)`.execute(db),
    sql`delete from market_events where created_at < ${cutoff}::timestamp(6)`.execute(db),
  ])
  return Number(tenant.numAffectedRows ?? 0n) + Number(market.numAffectedRows ?? 0n)
}
