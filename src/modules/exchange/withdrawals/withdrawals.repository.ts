import { sql } from 'kysely'

import { orderAndPageFirstRows, type PageRows, totalOverAll, withTotal } from '../../../core/lists.ts'
import type { Db } from '../../../db/database.ts'
import type { StoredApproval, WithdrawalStatus } from '../../../db/withdrawals.table.ts'
import { appendNumbered, appendTenantEvents, notifyEvents, type TenantEventWrite, tenantStream } from '../event-log/event-log.ts'
import { type DestinationRow, withdrawalRecord, type WithdrawalRow } from './withdrawal-records.ts'
import type { DestinationListQuery, WithdrawalListQuery } from './withdrawals.schemas.ts'

export type { DestinationRow, WithdrawalRow }

/** The transaction's time, as every row of one change is stamped. */
export async function transactionNow(db: Db): Promise<string> {
  const { rows } = await sql<{ now: string }>`select timezone('utc', now())::timestamp(6)::text as now`.execute(db)
  return rows[0]!.now
}

// --- Destinations ---

export async function insertDestination(db: Db, row: Omit<DestinationRow, 'created_at'>): Promise<DestinationRow> {
  return db.insertInto('withdrawal_destinations').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function findDestination(db: Db, uid: string): Promise<DestinationRow | undefined> {
  return db.selectFrom('withdrawal_destinations').selectAll().where('uid', '=', uid).executeTakeFirst()
}

function filteredDestinations(db: Db, query: DestinationListQuery, tenantId: string | undefined) {
  let q = db.selectFrom('withdrawal_destinations')
  if (tenantId !== undefined) q = q.where('tenant_id', '=', tenantId)
  if (query.currency !== undefined) q = q.where('currency', '=', query.currency)
  if (query.created_at_from) q = q.where('created_at', '>=', query.created_at_from)
  if (query.created_at_to) q = q.where('created_at', '<=', query.created_at_to)
  return q
}

export async function listDestinationRows(db: Db, query: DestinationListQuery, tenantId: string | undefined): Promise<PageRows<DestinationRow>> {
  const rows = await orderAndPageFirstRows(
    filteredDestinations(db, query, tenantId).selectAll('withdrawal_destinations').select(totalOverAll),
    'withdrawal_destinations',
    query,
  ).execute()
  return withTotal(rows, query, async () => {
    const { n } = await filteredDestinations(db, query, tenantId)
      .select(sql<number>`count(*)::int8`.as('n'))
      .executeTakeFirstOrThrow()
    return n
  })
}

// --- Withdrawals ---

const withPrecision = (db: Db) =>
  db.selectFrom('withdrawals').innerJoin('currencies', 'currencies.code', 'withdrawals.currency').selectAll('withdrawals').select('currencies.precision')

/** One withdrawal; `lock`: its row stays locked until the transaction ends (every move of its status takes it first). */
export async function findWithdrawal(db: Db, uid: string, lock = false): Promise<WithdrawalRow | undefined> {
  const q = withPrecision(db).where('withdrawals.uid', '=', uid)
  return (lock ? q.forUpdate('withdrawals') : q).executeTakeFirst()
}

export async function findWithdrawalByReference(db: Db, tenantId: string, reference: string): Promise<WithdrawalRow | undefined> {
  return withPrecision(db).where('withdrawals.tenant_id', '=', tenantId).where('withdrawals.reference', '=', reference).executeTakeFirst()
}

function filteredWithdrawals(db: Db, query: WithdrawalListQuery, tenantId: string | undefined) {
  let q = db.selectFrom('withdrawals').innerJoin('currencies', 'currencies.code', 'withdrawals.currency')
  if (tenantId !== undefined) q = q.where('withdrawals.tenant_id', '=', tenantId)
  if (query.currency !== undefined) q = q.where('withdrawals.currency', '=', query.currency)
  if (query.status !== undefined) q = q.where('withdrawals.status', '=', query.status)
  if (query.created_at_from) q = q.where('withdrawals.created_at', '>=', query.created_at_from)
  if (query.created_at_to) q = q.where('withdrawals.created_at', '<=', query.created_at_to)
  if (query.updated_at_from) q = q.where('withdrawals.updated_at', '>=', query.updated_at_from)
  if (query.updated_at_to) q = q.where('withdrawals.updated_at', '<=', query.updated_at_to)
  return q
}

export async function listWithdrawalRows(db: Db, query: WithdrawalListQuery, tenantId: string | undefined): Promise<PageRows<WithdrawalRow>> {
  const rows = await orderAndPageFirstRows(
    filteredWithdrawals(db, query, tenantId).selectAll('withdrawals').select('currencies.precision').select(totalOverAll),
    'withdrawals',
    query,
  ).execute()
  return withTotal(rows, query, async () => {
    const { n } = await filteredWithdrawals(db, query, tenantId)
      .select(sql<number>`count(*)::int8`.as('n'))
      .executeTakeFirstOrThrow()
    return n
  })
}

/**
 * The tenant's daily limit in the currency, its row locked until the transaction ends: two
 * requests at once are counted one after the other (undefined: no limit, nothing to count).
 */
export async function lockDailyLimit(db: Db, tenantId: string, currency: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('withdrawal_limits')
    .select(sql<string>`daily::text`.as('daily'))
    .where('tenant_id', '=', tenantId)
    .where('currency', '=', currency)
    .forUpdate()
    .executeTakeFirst()
  return row?.daily
}

/** What the tenant's pending and completed withdrawals in the currency asked for since the UTC day of `now` began. */
export async function usedToday(db: Db, tenantId: string, currency: string, now: string): Promise<string> {
  const { rows } = await sql<{ used: string }>`
    select coalesce(sum(amount), 0)::text as used from withdrawals
    where tenant_id = ${tenantId} and currency = ${currency} and status in ('pending', 'completed')
      and created_at >= date_trunc('day', ${now}::timestamp(6))`.execute(db)
  return rows[0]!.used
}

export async function findThreshold(db: Db, currency: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('withdrawal_thresholds')
    .select(sql<string>`approval_threshold::text`.as('threshold'))
    .where('currency', '=', currency)
    .executeTakeFirst()
  return row?.threshold
}

export interface NewWithdrawal {
  uid: string
  tenant_id: string
  currency: string
  amount: string
  destination_uid: string
  reference: string
  requested_by: string
}

export async function insertWithdrawal(db: Db, row: NewWithdrawal, now: string): Promise<void> {
  await db
    .insertInto('withdrawals')
    .values({ ...row, status: 'pending', approvals: sql`'[]'::jsonb`, created_at: now, updated_at: now })
    .execute()
}

export interface WithdrawalChange {
  status: WithdrawalStatus
  approvals: StoredApproval[]
  reason: string | null
}

/** Moves a pending withdrawal (its row locked by the caller); a final status stamps `decided_at`. */
export async function updateWithdrawal(db: Db, uid: string, change: WithdrawalChange, now: string): Promise<void> {
  await db
    .updateTable('withdrawals')
    .set({
      status: change.status,
      approvals: sql`${JSON.stringify(change.approvals)}::jsonb`,
      reason: change.reason,
      updated_at: now,
      decided_at: change.status === 'pending' ? null : now,
    })
    .where('uid', '=', uid)
    .where('status', '=', 'pending')
    .execute()
}

/**
 * The `withdrawal` event of a change on its tenant's stream, in the writer's transaction, and a
 * notification waking every process's streams of the tenant once it commits (docs/events.md).
 */
export async function writeWithdrawalEvent(db: Db, row: WithdrawalRow, now: string): Promise<void> {
  const body = JSON.stringify({ type: 'withdrawal', created_at: withdrawalRecord({ ...row, created_at: now }).created_at, withdrawal: withdrawalRecord(row) })
  const events: TenantEventWrite[] = []
  appendNumbered(events, [{ tenant_id: row.tenant_id, type: 'withdrawal', rest: `,${body.slice(1)}` }])
  await appendTenantEvents(db, events, now)
  await notifyEvents(db, [['withdrawals', tenantStream(row.tenant_id)].join(' ')])
}

// --- Settings (operator CLI) ---

/** Sets (or, with null, removes) a tenant's daily limit in a currency. */
export async function upsertDailyLimit(db: Db, tenantId: string, currency: string, daily: string | null): Promise<void> {
  if (daily === null) {
    await db.deleteFrom('withdrawal_limits').where('tenant_id', '=', tenantId).where('currency', '=', currency).execute()
    return
  }
  await db
    .insertInto('withdrawal_limits')
    .values({ tenant_id: tenantId, currency, daily })
    .onConflict((oc) => oc.columns(['tenant_id', 'currency']).doUpdateSet({ daily, updated_at: sql`timezone('utc', now())` }))
    .execute()
}

/** Sets (or, with null, removes) a currency's approval threshold. */
export async function upsertThreshold(db: Db, currency: string, threshold: string | null): Promise<void> {
  if (threshold === null) {
    await db.deleteFrom('withdrawal_thresholds').where('currency', '=', currency).execute()
    return
  }
  await db
    .insertInto('withdrawal_thresholds')
    .values({ currency, approval_threshold: threshold })
    .onConflict((oc) => oc.column('currency').doUpdateSet({ approval_threshold: threshold, updated_at: sql`timezone('utc', now())` }))
    .execute()
}
