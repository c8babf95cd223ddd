import { commonRecord, makeHeads, type ListEnvelope } from '../../lists.ts'
import type { OrderRow } from './orders.repository.ts'
import { ORDER_FIELDS } from './orders.ts'
import type { Page } from '../../page-rows.ts'

/** An order as REST renders it; decimals are the database's own text of the stored `numeric`. */
export function orderRecord(row: OrderRow) {
  return {
    ...commonRecord(row),
    tenant_id: row.tenant_id,
    client_order_id: row.client_order_id,
    symbol: row.symbol,
    side: row.side,
    type: row.type,
    quantity: row.quantity,
    price: row.price,
    status: row.status,
    filled_quantity: row.filled_quantity,
  }
}
export type OrderRecord = ReturnType<typeof orderRecord>

const orderHeads = makeHeads(ORDER_FIELDS)

export function orderEnvelope(page: Page<OrderRow>): ListEnvelope<OrderRecord> {
  return { heads: orderHeads, items: page.rows.map(orderRecord), total: page.total, offset: page.offset, limit: page.limit }
}
