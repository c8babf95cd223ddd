import { formatTimestamp } from '../../../core/timestamps.ts'
import type { TradeRow } from './market.repository.ts'

/** A public trade as REST renders it (and as trade events carry it). */
export function tradeRecord(row: TradeRow) {
  return {
    uid: row.uid,
    symbol: row.symbol,
    price: row.price,
    quantity: row.quantity,
    taker_side: row.taker_side,
    created_at: formatTimestamp(row.created_at),
    sequence: row.sequence,
  }
}
export type TradeRecord = ReturnType<typeof tradeRecord>
