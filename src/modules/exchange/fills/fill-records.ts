import { type ListEnvelope, makeHeads, type Page } from '../../../core/lists.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import type { FillRow } from './fills.repository.ts'
import { FILL_FIELDS } from './fills.schemas.ts'

/** A fill as REST renders it. */
export function fillRecord(row: FillRow) {
  return {
    uid: row.uid,
    created_at: formatTimestamp(row.created_at),
    order_uid: row.order_uid,
    trade_uid: row.trade_uid,
    symbol: row.symbol,
    side: row.side,
    role: row.role,
    price: row.price,
    quantity: row.quantity,
    fee: row.fee,
    fee_currency: row.fee_currency,
    liquidity: row.role,
  }
}
export type FillRecord = ReturnType<typeof fillRecord>

const fillHeads = makeHeads(FILL_FIELDS)

export function fillEnvelope(page: Page<FillRow>): ListEnvelope<FillRecord> {
  return { heads: fillHeads, items: page.rows.map(fillRecord), total: page.total, offset: page.offset, limit: page.limit }
}
