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

/** Whether any tenant has an active endpoint (the dispatcher's wake-ups on commits look only then). */
export async function anyActiveEndpoint(db: Db): Promise<boolean> {
  const row = await db.selectFrom('webhook_endpoints').select('uid').where('is_active', '=', true).limit(1).executeTakeFirst()
  return row !== undefined
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

/** An event as an endpoint's claim reads it: [sequence, type, payload (the stored JSON body)]. */
export type ClaimedEvent = [sequence: number, type: string, payload: string]

/** An endpoint leased to the claiming process, with the first page of its tenant's events after its cursor. */
export type ClaimedEndpoint = EndpointRow & { pending: ClaimedEvent[] }

export interface Claim {
  owner: string
  now: string
  /** The lease's end. */
  expires: string
  /** Events read per endpoint at most. */
  page: number
  /** Endpoints claimed at most (a look for due ones). */
  limit: number
  /** Endpoints this process is delivering already (a look for due ones). */
  skip?: readonly string[]
  /** This endpoint only, if it is still due: a task's next page. */
  uid?: string
}

/**
 * Leases endpoints with something to deliver now (active, behind their tenant's stream, not
 * waiting for a retry, leased by no live process or by this one) to `owner`, and reads each one's
 * next page of events, in one statement: one claim per batch. `skip locked`: of two processes
 * looking at once, each takes other endpoints; the lease's conditions are checked again on the
 * locked row, so one process delivers an endpoint at a time.
 */
export async function claimEndpoints(db: Db, c: Claim): Promise<ClaimedEndpoint[]> {
  const result = await sql<ClaimedEndpoint>`
    with due as (
      select e.uid from webhook_endpoints e
      join tenant_event_counters k on k.tenant_id = e.tenant_id
      where e.is_active and e.cursor < k.last_sequence
        and (e.next_attempt_at is null or e.next_attempt_at <= ${c.now}::timestamp(6))
        and (e.lease_expires_at is null or e.lease_expires_at <= ${c.now}::timestamp(6) or e.lease_owner = ${c.owner})
        ${c.uid === undefined ? sql`` : sql`and e.uid = ${c.uid}::uuid`}
        ${c.skip && c.skip.length > 0 ? sql`and e.uid <> all(${c.skip}::uuid[])` : sql``}
      order by coalesce(e.next_attempt_at, e.updated_at)
      limit ${c.limit}
      for update of e skip locked
    ), taken as (
      update webhook_endpoints w set lease_owner = ${c.owner}, lease_expires_at = ${c.expires}::timestamp(6)
      from due where w.uid = due.uid
      returning w.*
    )
    select t.*, coalesce((
      select json_agg(json_build_array(v.sequence, v.type, v.payload) order by v.sequence)
      from (
        select ev.sequence, ev.type, ev.payload from tenant_events ev
        where ev.tenant_id = t.tenant_id and ev.sequence > t.cursor
        order by ev.sequence limit ${c.page}
      ) v
    ), '[]'::json) as pending
    from taken t`.execute(db)
  // Parsed by the driver (json), or not (a driver without the type's parser).
  return result.rows.map((row) => (typeof row.pending === 'string' ? { ...row, pending: JSON.parse(row.pending) as ClaimedEvent[] } : row))
}

export async function releaseLease(db: Db, uid: string, owner: string): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ lease_owner: null, lease_expires_at: null }).where('uid', '=', uid).where('lease_owner', '=', owner).execute()
}

/**
 * Moves the cursor over events the endpoint does not take, if it is still where the caller saw it;
 * gives the lease up unless `keepLease` (the task's last statement).
 */
export async function passOver(db: Db, uid: string, owner: string, from: number, to: number, keepLease: boolean): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set(keepLease ? { cursor: to } : { cursor: to, lease_owner: null, lease_expires_at: null })
    .where('uid', '=', uid)
    .where('cursor', '=', from)
    .where('lease_owner', '=', owner)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export interface AttemptOutcome {
  uid: string
  sequence: number
  /** The endpoint's cursor when the attempt began: the outcome is kept only if it still is. */
  from: number
  /**
   * The cursor it moves to: past the event when delivered (and past the types it does not take
   * that follow it in the page), just before it otherwise (past those it does not take before it).
   */
  to: number
  attempt: number
  statusCode: number | null
  durationMs: number
  error: string | null
  createdAt: string
  delivered: boolean
  /** When the next try is (a failure with tries left). */
  nextAttemptAt: string | null
  /** Why the endpoint is disabled (a failure with no try left). */
  disabledReason: string | null
  /** The lease extended to this time, or given up (null): a failure, or the task's last statement. */
  leaseUntil: string | null
}

const column = <K extends keyof AttemptOutcome>(outcomes: readonly AttemptOutcome[], key: K) => outcomes.map((o) => o[key])

/**
 * Records attempts, each with its consequence, in one statement for any number of endpoints (one
 * attempt each): the cursor moves past a delivered event, a failure counts and schedules the retry
 * or disables the endpoint. Each is kept only while its endpoint is this owner's and its cursor is
 * still `from` (a replay moved it otherwise). The endpoints whose attempt was kept.
 */
export async function recordAttempts(db: Db, owner: string, outcomes: readonly AttemptOutcome[]): Promise<Set<string>> {
  const result = await sql<{ uid: string }>`
    with input as (
      select * from unnest(${column(outcomes, 'uid')}::uuid[], ${column(outcomes, 'sequence')}::int8[], ${column(outcomes, 'from')}::int8[],
        ${column(outcomes, 'to')}::int8[], ${column(outcomes, 'attempt')}::int4[], ${outcomes.map((o) => (o.delivered ? 0 : o.attempt))}::int4[],
        ${column(outcomes, 'statusCode')}::int4[], ${column(outcomes, 'durationMs')}::int4[], ${column(outcomes, 'error')}::text[],
        ${column(outcomes, 'createdAt')}::timestamp(6)[], ${column(outcomes, 'nextAttemptAt')}::timestamp(6)[],
        ${column(outcomes, 'disabledReason')}::text[], ${column(outcomes, 'leaseUntil')}::timestamp(6)[])
        as i(uid, sequence, from_cursor, to_cursor, attempt, failures, status_code, duration_ms, error, created_at, next_attempt_at, disabled_reason, lease_until)
    ), moved as (
      update webhook_endpoints w set
        cursor = i.to_cursor,
        failures = i.failures,
        next_attempt_at = i.next_attempt_at,
        is_active = w.is_active and i.disabled_reason is null,
        disabled_reason = coalesce(i.disabled_reason, w.disabled_reason),
        lease_owner = case when i.lease_until is null then null else w.lease_owner end,
        lease_expires_at = i.lease_until,
        updated_at = case when i.disabled_reason is null then w.updated_at else i.created_at end
      from input i
      where w.uid = i.uid and w.cursor = i.from_cursor and w.lease_owner = ${owner}
      returning w.uid
    ), recorded as (
      insert into webhook_deliveries (endpoint_uid, event_sequence, attempt, status_code, duration_ms, error, created_at, next_attempt_at)
      select i.uid, i.sequence, i.attempt, i.status_code, i.duration_ms, i.error, i.created_at, i.next_attempt_at
      from input i join moved m on m.uid = i.uid
      returning endpoint_uid
    )
    select endpoint_uid as uid from recorded`.execute(db)
  return new Set(result.rows.map((row) => row.uid))
}

/** Attempts older than `cutoff`: kept as long as events are (EVENT_RETENTION_DAYS). */
export async function deleteDeliveriesBefore(db: Db, cutoff: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('created_at', '<', cutoff).execute()
}
