import { type Selectable, sql } from 'kysely'

import { countAll, orderAndPageFirstRows, type PageRows, whereCommon, withTotal } from '../../../core/lists.ts'
import type { Db } from '../../../db/database.ts'
import type { OrderTable } from '../../../db/schema.ts'
import type { OrderListQuery, OrderStatus } from './orders.schemas.ts'

export type OrderRow = Selectable<OrderTable>

/** Statuses an order can still be cancelled (and amended) from: resting, or a stop pending. */
export const CANCELLABLE_STATUSES: readonly OrderStatus[] = ['open', 'partially_filled', 'pending']

export async function findOrderByClientOrderId(db: Db, tenantId: string, clientOrderId: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('tenant_id', '=', tenantId).where('client_order_id', '=', clientOrderId).executeTakeFirst()
}

export async function findOrder(db: Db, uid: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('uid', '=', uid).where('is_deleted', '=', false).executeTakeFirst()
}

/** The symbols (of `symbols`, or all) where a tenant has open or partially filled orders (on `side`, or either), in name order. */
export async function symbolsWithRestingOrdersOf(
  db: Db,
  tenantId: string,
  symbols: readonly string[] | undefined,
  side: OrderRow['side'] | null,
): Promise<string[]> {
  let q = db.selectFrom('orders').select('symbol').distinct().where('tenant_id', '=', tenantId).where('status', 'in', CANCELLABLE_STATUSES)
  if (symbols !== undefined) q = q.where('symbol', 'in', symbols)
  if (side !== null) q = q.where('side', '=', side)
  return (await q.orderBy('symbol').execute()).map((row) => row.symbol)
}

/** `tenantId` undefined lists every tenant's orders (admins). */
function filteredOrders(db: Db, query: OrderListQuery, tenantId: string | undefined) {
  let q = whereCommon(db.selectFrom('orders'), 'orders', query)
  // A one-row subquery rather than the value: the planner then expects the rows of an average
  // tenant, not what statistics (absent, or older than this tenant's orders) say about this one.
  if (tenantId !== undefined) q = q.where('orders.tenant_id', '=', sql<string>`(select ${tenantId}::uuid)`)
  if (query.symbol !== undefined) q = q.where('orders.symbol', '=', query.symbol)
  if (query.side !== undefined) q = q.where('orders.side', 'in', query.side)
  if (query.status !== undefined) q = q.where('orders.status', 'in', query.status)
  if (query.client_order_id !== undefined) q = q.where('orders.client_order_id', '=', query.client_order_id)
  return q
}

function isUnfiltered(query: OrderListQuery): boolean {
  return (
    query.symbol === undefined &&
    query.side === undefined &&
    query.status === undefined &&
    query.client_order_id === undefined &&
    query.created_at_from === undefined &&
    query.created_at_to === undefined &&
    query.updated_at_from === undefined &&
    query.updated_at_to === undefined
  )
}

/** The live orders of a tenant (of all tenants when undefined), from the counters the database keeps. */
function liveOrderCount(db: Db, tenantId: string | undefined) {
  let q = db.selectFrom('order_counts').select(sql<number>`coalesce(sum(live), 0)::int8`.as('count'))
  if (tenantId !== undefined) q = q.where('tenant_id', '=', tenantId)
  return q
}

/**
 * One page and its total in one statement, so both see the same snapshot. An unfiltered list
 * (the common case) takes its total from `order_counts`, a few rows whatever the tenant's size;
 * a filtered one still counts its matches. The page reads the index on
 * `(tenant_id, is_deleted, created_at, uid)` in order for `created_at` either way, so it costs
 * offset + limit index entries, not the tenant's history; other orders sort the matches.
 */
export async function listOrderRows(db: Db, query: OrderListQuery, tenantId: string | undefined): Promise<PageRows<OrderRow>> {
  const total = isUnfiltered(query) ? liveOrderCount(db, tenantId) : filteredOrders(db, query, tenantId).select(countAll)
  const rows = await orderAndPageFirstRows(
    filteredOrders(db, query, tenantId)
      .selectAll('orders')
      .select(sql<number>`(${total})`.as('total_count')),
    'orders',
    query,
  ).execute()
  return withTotal(rows, query, async () => (await total.executeTakeFirstOrThrow()).count)
}

/** How many orders of a tenant rest in a symbol's book or wait there as stops (for the dry run; the pass counts its own copy). */
export async function countOpenOrders(db: Db, tenantId: string, symbol: string): Promise<number> {
  const { rows } = await sql<{ open: string }>`
    select count(*) as open from orders
    where symbol = ${symbol} and tenant_id = ${tenantId} and status in ('open', 'partially_filled', 'pending')`.execute(db)
  return Number(rows[0]?.open ?? 0)
}
