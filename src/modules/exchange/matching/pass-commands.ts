import type { ValidationIssue } from '../../../core/errors.ts'
import type { OrderRow } from '../orders/orders.repository.ts'
import type { DecimalInput, OrderSide, OrderType, ParsedOrderFields, TimeInForce } from '../orders/orders.schemas.ts'
import type { PassAccounts } from '../settlement/settlement.ts'
import type { MatchWrite } from './matching.repository.ts'

/** The commands a matching pass (match-pass.ts) takes, its bounds, and what it decides to answer them. */

/** Why a cancel request ends an order: its owner asked (`user`), its tenant's cancel-after deadline passed (`deadline`), or its gtd time (`expired`). */
export type CancelManyReason = 'user' | 'deadline' | 'expired'

export interface StepLimits {
  /** Fills written by one statement: a longer sweep continues in the next step. */
  fillsPerStep: number
  /** Orders placed or changed by one statement. */
  ordersPerStep: number
  /** Orders of one tenant resting in the symbol's book at once (MAX_OPEN_ORDERS_PER_SYMBOL). */
  maxOpenOrdersPerSymbol: number
}

/**
 * Writes one step: its account changes (locked and re-checked), then its rows in one statement;
 * answers the orders it wrote, or none when the book's epoch moved.
 */
export type StepWriter = (
  write: Omit<MatchWrite, 'accounts' | 'notifications' | 'candles'>,
  accounts: ReturnType<PassAccounts['takeStep']>,
  last: boolean,
) => Promise<OrderRow[]>

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
