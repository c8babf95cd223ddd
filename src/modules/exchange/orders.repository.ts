import { sql, type Generated, type Insertable, type Selectable } from 'kysely'
import type { Db, Decimal, Timestamp } from '../../db.ts'
import { orderAndPage, whereCommon } from '../../lists.ts'
import type { OrderSide, OrderStatus, OrderType } from './order-input.ts'
import type { OrderListQuery } from './orders.ts'
import { countAll, withTotal, type PageRows } from '../../page-rows.ts'

export interface OrderTable {
  uid: string
  created_at: Timestamp
  updated_at: Timestamp
  is_deleted: Generated<boolean>
  meta_data: Record<string, unknown> | null
  user_id: string
  tenant_id: string
  client_order_id: string | null
  symbol: string
  side: OrderSide
  type: OrderType
  quantity: Decimal
  price: Decimal | null
  status: OrderStatus
  filled_quantity: Generated<string>
}
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
  if (tenantId !== undefined) q = q.where('orders.tenant_id', '=', tenantId)
  if (query.symbol !== undefined) q = q.where('orders.symbol', '=', query.symbol)
  if (query.side !== undefined) q = q.where('orders.side', '=', query.side)
  if (query.status !== undefined) q = q.where('orders.status', '=', query.status)
  return q
}

/**
 * One page and its total in one statement. The total is an uncorrelated subquery, run once as an
 * index-only count, rather than `count(*) over ()`, which would read, sort and number every one of
 * the tenant's orders to hand back 100 of them.
 */
export async function listOrderRows(db: Db, query: OrderListQuery, tenantId: string | undefined): Promise<PageRows<OrderRow>> {
  const total = filteredOrders(db, query, tenantId).select(countAll)
  const rows = await orderAndPage(
    filteredOrders(db, query, tenantId)
      .selectAll('orders')
      .select(sql<number>`(${total})`.as('total_count')),
    'orders',
    query,
  ).execute()
  return withTotal(rows, query, async () => {
    const { count } = await filteredOrders(db, query, tenantId).select(countAll).executeTakeFirstOrThrow()
    return count
  })
}
