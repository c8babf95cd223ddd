import { type DecimalValue, formatDecimalAtLeast } from '../../../core/decimal.ts'
import type { FillRecord } from '../fills/fill-records.ts'
import type { TradeRecord } from '../market/trade-records.ts'
import type { CandleEventBody } from '../market-data/candles.ts'
import { orderRecord } from '../orders/order-records.ts'
import type { OrderRow } from '../orders/orders.repository.ts'

/**
 * The types of a tenant's stream, each with the scope a caller needs to be given it (docs/events.md,
 * "Who sees which events"): a stream whose caller lacks it skips the type, and its sequence shows
 * the gap. A new type (a `withdrawal`, say) is declared here, so it cannot be written without
 * naming its scope. Scopes as text: importing their owners' constants would make a cycle.
 */
export const TENANT_EVENT_SCOPES = {
  'order.created': 'orders:read',
  'order.updated': 'orders:read',
  fill: 'orders:read',
  balance: 'accounts:read',
  withdrawal: 'accounts:read',
} as const satisfies Record<string, string>

/** Types of the events of a tenant's stream that a matching pass writes. */
export type TenantEventType = keyof typeof TENANT_EVENT_SCOPES
export type { MarketEventType } from '../event-log/event-log.ts'

/** An order's record as JSON, as a tenant event carries it (a step renders one state once: `StepOutput`). */
export function orderJson(order: OrderRow): string {
  return JSON.stringify(orderRecord(order))
}

/**
 * A tenant event's JSON body after its `"sequence"` member (`,"type":…}`): the statement that
 * stores it numbers it in the tenant's gapless sequence (docs/events.md, "Writing"). The same text
 * as `JSON.stringify({ type, created_at, order, fill })` without its `{`, with the order's JSON
 * given (`orderJson`).
 */
export function tenantEventTail(type: TenantEventType, createdAt: string, order: string, fill: FillRecord | null): string {
  return `,"type":${JSON.stringify(type)},"created_at":${JSON.stringify(createdAt)},"order":${order},"fill":${fill === null ? 'null' : JSON.stringify(fill)}}`
}

/** A market event's body, typed: `marketEventPayload` frames it (event-log/event-log.ts). */
export type MarketEventBody = { trade: TradeRecord } | { book: BookLevel & { checksum: number } } | { candle: CandleEventBody }

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
