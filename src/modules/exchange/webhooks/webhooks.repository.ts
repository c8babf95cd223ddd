import { type Selectable, sql } from 'kysely'

import { totalOverAll, withTotal } from '../../../core/lists.ts'
import type { Db } from '../../../db/database.ts'
import type { WebhookDeliveryTable, WebhookEndpointTable } from '../../../db/webhooks.table.ts'

export type EndpointRow = Selectable<WebhookEndpointTable>
export type DeliveryRow = Selectable<WebhookDeliveryTable>

/** A `timestamp(6)` text in UTC for `ms`, as the tables store it. */
export const storedTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '')

export async function findEndpoint(db: Db, uid: string): Promise<EndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('uid', '=', uid).executeTakeFirst()
}

export async function listEndpointRows(db: Db, tenantId: string, offset: number, limit: number) {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .select(totalOverAll)
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('uid')
    .offset(offset)
    .limit(limit)
    .execute()
  return withTotal(rows, { offset }, async () => Number((await countEndpoints(db, tenantId)) ?? 0))
}

export async function countEndpoints(db: Db, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

/**
 * Inserts an endpoint unless its tenant has `max` already: the tenant's row is locked first, so
 * two creations at once cannot both take the last place. Undefined when the tenant is full.
 */
export async function insertEndpoint(db: Db, row: Omit<EndpointRow, 'failures' | 'lease_owner' | 'lease_expires_at'>, max: number) {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('tenants').select('id').where('id', '=', row.tenant_id).forUpdate().execute()
    if ((await countEndpoints(trx, row.tenant_id)) >= max) return undefined
    return trx.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow()
  })
}

export async function updateEndpoint(db: Db, uid: string, changes: Partial<Omit<EndpointRow, 'uid' | 'tenant_id'>>): Promise<EndpointRow | undefined> {
  return db.updateTable('webhook_endpoints').set(changes).where('uid', '=', uid).returningAll().executeTakeFirst()
}

export async function deleteEndpoint(db: Db, uid: string): Promise<EndpointRow | undefined> {
  return db.deleteFrom('webhook_endpoints').where('uid', '=', uid).returningAll().executeTakeFirst()
}

/** An endpoint's attempts, newest first. */
export async function listDeliveryRows(db: Db, uid: string, offset: number, limit: number) {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .select(totalOverAll)
    .where('endpoint_uid', '=', uid)
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute()
  return withTotal(rows, { offset }, async () => {
    const row = await db
      .selectFrom('webhook_deliveries')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('endpoint_uid', '=', uid)
      .executeTakeFirst()
    return Number(row?.n ?? 0)
  })
}

// --- Delivery (webhook-dispatcher.ts) ---

/**
 * Endpoints with something to deliver now: active, behind their tenant's stream, not waiting for
 * a retry, and leased by no live process (or by this one, but not running here).
 */
export async function dueEndpoints(db: Db, now: string, owner: string, skip: readonly string[], limit: number): Promise<string[]> {
  let q = db
    .selectFrom('webhook_endpoints as e')
    .innerJoin('tenant_event_counters as c', 'c.tenant_id', 'e.tenant_id')
    .select('e.uid')
    .where('e.is_active', '=', true)
    .where(sql<boolean>`e.cursor < c.last_sequence`)
    .where((w) => w.or([w('e.next_attempt_at', 'is', null), w('e.next_attempt_at', '<=', now)]))
    .where((w) => w.or([w('e.lease_expires_at', 'is', null), w('e.lease_expires_at', '<=', now), w('e.lease_owner', '=', owner)]))
  if (skip.length > 0) q = q.where('e.uid', 'not in', skip)
  const rows = await q
    .orderBy(sql`coalesce(e.next_attempt_at, e.updated_at)`)
    .limit(limit)
    .execute()
  return rows.map((row) => row.uid)
}

/**
 * Takes or renews the lease of an endpoint for `owner` until `expires`: one statement, so of two
 * processes asking at once one gets it (the row lock orders them). The row when taken.
 */
export async function takeLease(db: Db, uid: string, owner: string, now: string, expires: string): Promise<EndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set({ lease_owner: owner, lease_expires_at: expires })
    .where('uid', '=', uid)
    .where((w) => w.or([w('lease_expires_at', 'is', null), w('lease_expires_at', '<=', now), w('lease_owner', '=', owner)]))
    .returningAll()
    .executeTakeFirst()
}

export async function releaseLease(db: Db, uid: string, owner: string): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ lease_owner: null, lease_expires_at: null }).where('uid', '=', uid).where('lease_owner', '=', owner).execute()
}

/** Moves the cursor over events the endpoint does not take, if it is still where the caller saw it. */
export async function passOver(db: Db, uid: string, owner: string, from: number, to: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ cursor: to })
    .where('uid', '=', uid)
    .where('cursor', '=', from)
    .where('lease_owner', '=', owner)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export interface AttemptOutcome {
  sequence: number
  /** The endpoint's cursor when the attempt began: the outcome is kept only if it still is. */
  from: number
  attempt: number
  statusCode: number | null
  durationMs: number
  error: string | null
  createdAt: string
  /** Delivered: the cursor moves to `sequence`. */
  delivered: boolean
  /** When the next try is (a failure with tries left). */
  nextAttemptAt: string | null
  /** Why the endpoint is disabled (a failure with no try left). */
  disabledReason: string | null
}

/**
 * Records one attempt and its consequence in one statement: the cursor moves past a delivered
 * event, a failure counts and schedules the retry or disables the endpoint. Kept only while the
 * endpoint is this owner's and its cursor is still `from` (a replay moved it otherwise): false then.
 * A delivery extends the lease to `leaseUntil`; a failure gives it up.
 */
export async function recordAttempt(db: Db, uid: string, owner: string, o: AttemptOutcome, leaseUntil: string): Promise<boolean> {
  const result = await sql<{ n: number }>`
    with moved as (
      update webhook_endpoints set
        cursor = ${o.delivered ? o.sequence : o.from}::int8,
        failures = ${o.delivered ? 0 : o.attempt}::int4,
        next_attempt_at = ${o.nextAttemptAt}::timestamp(6),
        is_active = is_active and ${o.disabledReason === null},
        disabled_reason = coalesce(${o.disabledReason}::text, disabled_reason),
        lease_owner = case when ${o.delivered} then lease_owner else null end,
        lease_expires_at = case when ${o.delivered} then ${leaseUntil}::timestamp(6) else null end,
        updated_at = case when ${o.disabledReason === null} then updated_at else ${o.createdAt}::timestamp(6) end
      where uid = ${uid} and cursor = ${o.from} and lease_owner = ${owner}
      returning uid
    ), recorded as (
      insert into webhook_deliveries (endpoint_uid, event_sequence, attempt, status_code, duration_ms, error, created_at, next_attempt_at)
      select uid, ${o.sequence}, ${o.attempt}, ${o.statusCode}::int4, ${o.durationMs}, ${o.error}::text, ${o.createdAt}::timestamp(6), ${o.nextAttemptAt}::timestamp(6)
      from moved
      returning endpoint_uid
    )
    select count(*)::int as n from recorded`.execute(db)
  return Number(result.rows[0]?.n ?? 0) === 1
}

/** Attempts older than `cutoff`: kept as long as events are (EVENT_RETENTION_DAYS). */
export async function deleteDeliveriesBefore(db: Db, cutoff: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('created_at', '<', cutoff).execute()
}
