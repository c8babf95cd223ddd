import { type Insertable, type Selectable, sql } from 'kysely'

import { orderAndPageFirstRows, whereCommon } from '../../../core/lists.ts'
import { countAll, type PageRows, withTotal } from '../../../core/lists.ts'
import { type Db, preparedStatement } from '../../../db/database.ts'
import type { OrderTable } from '../../../db/schema.ts'
import type { MarketRules } from './order-rules.ts'
import type { OrderStatus } from './orders.schemas.ts'
import type { OrderListQuery } from './orders.schemas.ts'

export type OrderRow = Selectable<OrderTable>

/** Statuses an order can still be cancelled from. */
export const CANCELLABLE_STATUSES: readonly OrderStatus[] = ['open', 'partially_filled']

/**
 * Inserts unless the tenant already used the order's `client_order_id` (then undefined): the unique
 * constraint, not a prior read, decides between concurrent submissions.
 */
export async function insertOrder(db: Db, order: Insertable<OrderTable>): Promise<OrderRow | undefined> {
  return db
    .insertInto('orders')
    .values(order)
    .onConflict((oc) => oc.constraint('orders_tenant_client_order_id_key').doNothing())
    .returningAll()
    .executeTakeFirst()
}

const ORDER_COLUMNS =
  'uid, created_at, updated_at, is_deleted, meta_data, user_id, tenant_id, client_order_id, symbol, side, type, quantity, price, status, filled_quantity'

/** A new order and the market rules it was validated against. */
export interface RuledOrder {
  order: Pick<OrderRow, 'uid' | 'user_id' | 'tenant_id' | 'client_order_id' | 'symbol' | 'side' | 'type' | 'quantity' | 'price' | 'status'>
  rules: MarketRules
}

// Fixed text, prepared once per connection. Each row is inserted only if its symbol still exists,
// is active and has exactly the rules the row was validated against (compared by value, so a change
// through any path, plain SQL included, is seen: plain SQL does not bump `updated_at`). Rows go in
// in key order, so two statements holding the same client_order_ids wait for each other instead of
// deadlocking.
const insertRuledOrdersStatement = preparedStatement<OrderRow>(
  'insert_ruled_orders',
  `
insert into orders (uid, user_id, tenant_id, client_order_id, symbol, side, type, quantity, price, status)
select o.uid, o.user_id, o.tenant_id, o.client_order_id, o.symbol, o.side, o.type, o.quantity, o.price, o.status
from unnest(
  $1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::numeric[], $10::text[],
  $11::integer[], $12::integer[], $13::numeric[], $14::numeric[], $15::numeric[], $16::numeric[]
) as o(
  uid, user_id, tenant_id, client_order_id, symbol, side, type, quantity, price, status,
  price_precision, quantity_precision, min_order_quantity, tick_size, daily_fluctuation_price_limit_percent, reference_price
)
join symbols s on s.symbol = o.symbol
  and s.is_active and not s.is_deleted
  and s.price_precision = o.price_precision
  and s.quantity_precision = o.quantity_precision
  and s.min_order_quantity = o.min_order_quantity
  and s.tick_size = o.tick_size
  and s.daily_fluctuation_price_limit_percent = o.daily_fluctuation_price_limit_percent
  and s.reference_price is not distinct from o.reference_price
order by o.tenant_id, o.client_order_id
on conflict on constraint orders_tenant_client_order_id_key do nothing
returning ${ORDER_COLUMNS}`,
)

/**
 * Inserts many orders in one statement (one commit). A row is skipped, and absent from the result,
 * when its tenant already used its `client_order_id` (an earlier order, or another row of the same
 * statement) or when its market's rules are no longer those it was validated against.
 */
export async function insertRuledOrders(db: Db, rows: readonly RuledOrder[]): Promise<OrderRow[]> {
  const columns: unknown[][] = Array.from({ length: 16 }, () => new Array(rows.length))
  rows.forEach(({ order, rules }, i) => {
    columns[0]![i] = order.uid
    columns[1]![i] = order.user_id
    columns[2]![i] = order.tenant_id
    columns[3]![i] = order.client_order_id
    columns[4]![i] = order.symbol
    columns[5]![i] = order.side
    columns[6]![i] = order.type
    columns[7]![i] = order.quantity
    columns[8]![i] = order.price
    columns[9]![i] = order.status
    columns[10]![i] = rules.price_precision
    columns[11]![i] = rules.quantity_precision
    columns[12]![i] = rules.min_order_quantity
    columns[13]![i] = rules.tick_size
    columns[14]![i] = rules.daily_fluctuation_price_limit_percent
    columns[15]![i] = rules.reference_price
  })
  const { rows: inserted } = await db.executeQuery(insertRuledOrdersStatement(columns))
  return inserted
}

export async function findOrderByClientOrderId(db: Db, tenantId: string, clientOrderId: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('tenant_id', '=', tenantId).where('client_order_id', '=', clientOrderId).executeTakeFirst()
}

export async function findOrder(db: Db, uid: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('uid', '=', uid).where('is_deleted', '=', false).executeTakeFirst()
}

/** Cancels in one statement, so a cancel racing a fill (or another cancel) cannot both win. */
export async function cancelOpenOrder(db: Db, uid: string, tenantId: string): Promise<OrderRow | undefined> {
  return db
    .updateTable('orders')
    .set({ status: 'cancelled', updated_at: sql<string>`timezone('utc', now())` })
    .where('uid', '=', uid)
    .where('tenant_id', '=', tenantId)
    .where('is_deleted', '=', false)
    .where('status', 'in', CANCELLABLE_STATUSES)
    .returningAll()
    .executeTakeFirst()
}

/** `tenantId` undefined lists every tenant's orders (admins). */
function filteredOrders(db: Db, query: OrderListQuery, tenantId: string | undefined) {
  let q = whereCommon(db.selectFrom('orders'), 'orders', query)
  // A one-row subquery rather than the value: the planner then expects the rows of an average
  // tenant, not what statistics (absent, or older than this tenant's orders) say about this one.
  if (tenantId !== undefined) q = q.where('orders.tenant_id', '=', sql<string>`(select ${tenantId}::uuid)`)
  if (query.symbol !== undefined) q = q.where('orders.symbol', '=', query.symbol)
  if (query.side !== undefined) q = q.where('orders.side', '=', query.side)
  if (query.status !== undefined) q = q.where('orders.status', '=', query.status)
  return q
}

function isUnfiltered(query: OrderListQuery): boolean {
  return (
    query.symbol === undefined &&
    query.side === undefined &&
    query.status === undefined &&
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
