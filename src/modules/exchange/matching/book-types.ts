import type { DecimalValue } from '../../../core/decimal.ts'
import type { BookTop } from '../market/book-checksum.ts'

/** The order book's public shapes (order-book.ts): what goes in, what a match answers. */

export type Side = 'buy' | 'sell'

export interface RestingOrder {
  uid: string
  tenantId: string
  side: Side
  price: DecimalValue
  remaining: DecimalValue
  seq: bigint
}

export interface IncomingOrder {
  uid: string
  tenantId: string
  side: Side
  type: 'limit' | 'market'
  price: DecimalValue | null
  quantity: DecimalValue
  seq: bigint
  /** False: a limit order's remainder is cancelled (`unfilled`) rather than rested (time in force `ioc`). */
  rest?: boolean
}

export interface Fill {
  makerUid: string
  makerTenantId: string
  takerUid: string
  price: DecimalValue
  quantity: DecimalValue
  /** The maker's remaining quantity after this fill. */
  makerRemaining: DecimalValue
}

export interface LevelChange {
  side: Side
  price: DecimalValue
  /** New total at that level; 0 means the level is gone. */
  quantity: DecimalValue
  orders: number
  /** The best levels of both sides right after this change, for the book event's checksum (docs/api.md, "Book integrity"). */
  top: BookTop
}

export type CancelReason = 'unfilled' | 'self_trade'

export interface MatchResult {
  /** In execution order. */
  fills: Fill[]
  /** The incoming order's quantity not filled. */
  remaining: DecimalValue
  /** True when a limit remainder now rests in the book. */
  rested: boolean
  cancelReason: null | CancelReason
  /** Every level whose totals this call changed, final value per (side, price), in the order first touched. */
  levelChanges: LevelChange[]
  /**
   * False when the call stopped at its `maxFills` with quantity left that may still trade: the
   * order is neither rested nor cancelled, and the caller matches the rest in another call.
   */
  complete: boolean
}

export interface Level {
  price: DecimalValue
  quantity: DecimalValue
  orders: number
}
