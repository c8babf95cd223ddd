import type { ValidationIssue } from '../../../core/errors.ts'
import type { OrderRow } from '../orders/orders.repository.ts'
import type { DecimalInput, OrderSide, OrderType, ParsedOrderFields, TimeInForce } from '../orders/orders.schemas.ts'

/** The commands a matching pass (match-pass.ts) takes, and what it decides to answer them. */

/** A new order, validated against the market rules as the caller last knew them. */
export interface PlaceRequest {
  uid: string
  userId: string
  tenantId: string
  clientOrderId: string | null
  symbol: string
  side: OrderSide
  type: OrderType
  quantity: DecimalInput
  price: DecimalInput | null
  timeInForce: TimeInForce
  postOnly: boolean
  /** Stop orders: pending until a trade reaches it. */
  stopPrice?: DecimalInput | null
  /** gtd orders: `timestamp(6)` text in UTC. */
  expireAt?: string | null
  /** Re-checked against the rules read under the symbol's lock, so a rule changed meanwhile is seen. */
  parsed: Pick<ParsedOrderFields, 'fields' | 'invalid'>
}

/** A resting order's new quantity, price or both (docs/api.md, "Order lifecycle"); null keeps the value. */
export interface AmendRequest {
  uid: string
  /** The caller's tenant (the order's owner, checked before): its accounts are read with the book. */
  tenantId: string
  quantity: DecimalInput | null
  price: DecimalInput | null
  /** A pending stop's new stop price. */
  stopPrice?: DecimalInput | null
}

/** What one command will be answered, decided during the pass, resolved once the pass is stored. */
export type Answer =
  | { kind: 'placed'; uid: string }
  | { kind: 'existing'; order: OrderRow }
  | { kind: 'same_pass'; uid: string }
  | { kind: 'refused'; issues: ValidationIssue[] }
  | { kind: 'cancelled'; uid: string }
  | { kind: 'not_open' }
  | { kind: 'amended'; uid: string }
  /** An amend that changes nothing writes nothing. */
  | { kind: 'unchanged' }
  /** The symbol is not active: its orders can be cancelled, not amended. */
  | { kind: 'not_active' }
  | { kind: 'cancelled_many'; uids: string[] }
