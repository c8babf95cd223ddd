import { type DecimalValue, formatDecimalAtLeast } from '../../../core/decimal.ts'
import type { FillRecord } from '../fills/fill-records.ts'
import type { TradeRecord } from '../market/trade-records.ts'
import type { CandleEventBody } from '../market-data/candles.ts'
import { orderRecord } from '../orders/order-records.ts'
import type { OrderRow } from '../orders/orders.repository.ts'

/** Types of the events of a tenant's stream that a matching pass writes. */
export type TenantEventType = 'order.created' | 'order.updated' | 'fill' | 'balance'
export type MarketEventType = 'trade' | 'book' | 'candle'

/**
 * A tenant event's JSON body after its `"sequence"` member (`,"type":…}`): the statement that
 * stores it numbers it in the tenant's gapless sequence (docs/events.md, "Writing").
 */
export function tenantEventTail(type: TenantEventType, createdAt: string, order: OrderRow, fill: FillRecord | null): string {
  const body = JSON.stringify({ type, created_at: createdAt, order: orderRecord(order), fill })
  return `,${body.slice(1)}`
}

/** A market event's whole JSON body: its sequence is the symbol's, known to the pass. */
export function marketEventPayload(
  sequence: number,
  type: MarketEventType,
  createdAt: string,
  body: { trade: TradeRecord } | { book: BookLevel } | { candle: CandleEventBody },
): string {
  return JSON.stringify({ sequence, type, created_at: createdAt, ...body })
}

export interface BookLevel {
  side: 'buy' | 'sell'
  price: string
  quantity: string
  orders: number
}

/** A changed level as book events and the book snapshot print it: quantity `"0"` removes the level. */
export function bookLevel(
  level: { side: 'buy' | 'sell'; price: DecimalValue; quantity: DecimalValue; orders: number },
  pricePlaces: number,
  quantityPlaces: number,
): BookLevel {
  return {
    side: level.side,
    price: formatDecimalAtLeast(level.price, pricePlaces),
    quantity: level.quantity.coefficient === 0n ? '0' : formatDecimalAtLeast(level.quantity, quantityPlaces),
    orders: level.orders,
  }
}
