import { type Selectable, sql } from 'kysely'

import { orderAndPageFirstRows, type PageRows, totalOverAll, withTotal } from '../../../core/lists.ts'
import type { Db } from '../../../db/database.ts'
import type { FillTable } from '../../../db/schema.ts'
import type { FillListQuery } from './fills.schemas.ts'

export type FillRow = Selectable<FillTable>

function filteredFills(db: Db, query: FillListQuery, tenantId: string | undefined) {
  let q = db.selectFrom('fills')
  if (tenantId !== undefined) q = q.where('fills.tenant_id', '=', tenantId)
  if (query.created_at_from) q = q.where('fills.created_at', '>=', query.created_at_from)
  if (query.created_at_to) q = q.where('fills.created_at', '<=', query.created_at_to)
  if (query.symbol !== undefined) q = q.where('fills.symbol', '=', query.symbol)
  if (query.side !== undefined) q = q.where('fills.side', '=', query.side)
  if (query.order_uid !== undefined) q = q.where('fills.order_uid', '=', query.order_uid)
  return q
}

/** One page of fills (of one tenant, or of all when `tenantId` is undefined) and how many match in all. */
export async function listFillRows(db: Db, query: FillListQuery, tenantId: string | undefined): Promise<PageRows<FillRow>> {
  const rows = await orderAndPageFirstRows(
    filteredFills(db, query, tenantId)
      .select(['uid', 'created_at', 'order_uid', 'trade_uid', 'tenant_id', 'symbol', 'side', 'role', 'price', 'quantity', 'fee', 'fee_currency'])
      .select(totalOverAll),
    'fills',
    query,
  ).execute()
  return withTotal(rows, query, async () => {
    const { n } = await filteredFills(db, query, tenantId)
      .select(sql<number>`count(*)::int8`.as('n'))
      .executeTakeFirstOrThrow()
    return n
  })
}

/**
 * The first `limit` fills of each of many orders, oldest first, in one statement: one index walk
 * per order (fills_order_idx), so an order with thousands of fills costs `limit` rows.
 */
export async function findFillsOfOrders(db: Db, orderUids: readonly string[], limit: number): Promise<Map<string, FillRow[]>> {
  const byOrder = new Map<string, FillRow[]>(orderUids.map((uid) => [uid, []]))
  if (orderUids.length === 0) return byOrder
  const { rows } = await sql<FillRow>`
    select f.* from unnest(${[...orderUids]}::uuid[]) as o(uid)
    cross join lateral (select * from fills where order_uid = o.uid order by created_at, uid limit ${limit}) f`.execute(db)
  for (const row of rows) byOrder.get(row.order_uid)?.push(row)
  return byOrder
}
