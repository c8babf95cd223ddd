import type { ValidationIssue } from '../../../core/errors.ts'
import type { StreamKey } from '../event-log/event-log.ts'
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

export type PlaceOutcome =
  /** Stored and matched: the order as its own matching pass left it. */
  | { kind: 'placed'; order: OrderRow }
  /** Its tenant's `client_order_id` already names this order (stored earlier, or earlier in the same pass). */
  | { kind: 'existing'; order: OrderRow }
  /** The symbol's rules, as read under the lock, refuse it (they changed since it was validated). */
  | { kind: 'refused'; issues: ValidationIssue[] }

export type CancelOutcome = { kind: 'cancelled'; order: OrderRow } | { kind: 'not_open' }

export type AmendOutcome =
  /** The order as its amend's pass left it; `unchanged`: the amend named its current values, nothing was written. */
  { kind: 'amended'; order: OrderRow } | { kind: 'unchanged' } | { kind: 'refused'; issues: ValidationIssue[] } | { kind: 'not_open' } | { kind: 'not_active' }

export type Command =
  | { kind: 'place'; request: PlaceRequest; resolve: (outcome: PlaceOutcome) => void; reject: (error: unknown) => void }
  | { kind: 'cancel'; uid: string; resolve: (outcome: CancelOutcome) => void; reject: (error: unknown) => void }
  | { kind: 'amend'; request: AmendRequest; resolve: (outcome: AmendOutcome) => void; reject: (error: unknown) => void }
  /** Cancels every resting order of a tenant (on one side, or both): answers them as cancelled, in acceptance order. */
  | {
      kind: 'cancel_many'
      tenantId: string
      side: OrderRow['side'] | null
      reason: CancelManyReason
      resolve: (orders: OrderRow[]) => void
      reject: (error: unknown) => void
    }
  /** Loads the book (and finishes a sweep a crash cut short) before any order arrives. */
  | { kind: 'warm'; resolve: () => void; reject: (error: unknown) => void }
  /** A pass for its own sake: every pass first cancels the gtd orders due by the clock. */
  | { kind: 'expire'; resolve: () => void; reject: (error: unknown) => void }

export interface QueueOptions extends StepLimits {
  /** Commands of one symbol handled by one pass. */
  maxPassSize: number
  /** PostgreSQL: each pass a transaction holding the symbol's row lock. The embedded database is one process and one connection. */
  transactions: boolean
  events?: EventsCommitted
  /** MARKET_TIMEZONE: candles and the reference price follow its days (docs/market-data.md). */
  marketTimeZone: string
  /** The clock gtd orders expire by (ms since the epoch). */
  now: () => number
}

export interface EventsCommitted {
  /** This process's streams of these keys have new events: called once the pass has committed. */
  committed: (keys: readonly StreamKey[]) => void
  /**
   * Other processes' streams are woken by a NOTIFY sent in the pass's transaction, naming this
   * process (`instance`) so it can skip its own. Undefined: no other process (the embedded database).
   */
  notify?: { instance: string }
}

/** Answers a command of a symbol no longer listed (its book row is gone). */
export function answerUnknownSymbol(command: Command): void {
  if (command.kind === 'place')
    command.resolve({
      kind: 'refused',
      issues: [{ type: 'value_error.symbol', loc: ['body', 'symbol'], msg: `unknown symbol ${command.request.symbol}`, input: command.request.symbol }],
    })
  else if (command.kind === 'cancel' || command.kind === 'amend') command.resolve({ kind: 'not_open' })
  else if (command.kind === 'cancel_many') command.resolve([])
  else command.resolve()
}

export function answer(command: Command, decided: Answer, rows: Map<string, OrderRow>): void {
  const row = (uid: string) => {
    const found = rows.get(uid)
    if (!found) throw new Error(`order ${uid} was written but not returned`)
    return found
  }
  try {
    if (command.kind === 'warm' || command.kind === 'expire') return command.resolve()
    if (command.kind === 'cancel') {
      command.resolve(decided.kind === 'cancelled' ? { kind: 'cancelled', order: row(decided.uid) } : { kind: 'not_open' })
      return
    }
    if (command.kind === 'cancel_many') return command.resolve(decided.kind === 'cancelled_many' ? decided.uids.map(row) : [])
    if (command.kind === 'amend') {
      switch (decided.kind) {
        case 'amended':
          return command.resolve({ kind: 'amended', order: row(decided.uid) })
        case 'unchanged':
        case 'not_open':
        case 'not_active':
        case 'refused':
          return command.resolve(decided)
        default:
          throw new Error(`an amend cannot be answered ${decided.kind}`)
      }
    }
    switch (decided.kind) {
      case 'placed':
        return command.resolve({ kind: 'placed', order: row(decided.uid) })
      case 'same_pass':
        return command.resolve({ kind: 'existing', order: row(decided.uid) })
      case 'existing':
        return command.resolve({ kind: 'existing', order: decided.order })
      case 'refused':
        return command.resolve({ kind: 'refused', issues: decided.issues })
      default:
        throw new Error(`a placed order cannot be answered ${decided.kind}`)
    }
  } catch (error) {
    command.reject(error)
  }
}

export interface MatchingOptions extends Partial<StepLimits> {
  /** Passes (transactions) of different symbols in flight at once. */
  maxConcurrentPasses: number
  /** Commands of one symbol handled by one pass. */
  maxPassSize?: number
  /** PostgreSQL: each pass a transaction holding the symbol's row lock. The embedded database is one process and one connection. */
  transactions: boolean
  /** Who hears of the events a pass committed (docs/events.md, "Delivery"). */
  events?: EventsCommitted
  /** MARKET_TIMEZONE (default Asia/Tehran): candles and the reference price follow its days. */
  marketTimeZone?: string
  /** The clock gtd orders expire by (ms since the epoch); the wall clock when absent. */
  now?: () => number
}

/** The tenants placing or amending orders in the pass: their base and quote accounts are the ones it may hold from. */
export function placingTenants(commands: readonly Command[]): string[] {
  return [...new Set(commands.flatMap((c) => (c.kind === 'place' || c.kind === 'amend' ? [c.request.tenantId] : [])))]
}

/** How many of `pending`, from the first, a pass that read `tenants`' accounts can take: up to `room`, and up to the first placing or amending for another tenant. */
export function joinable(pending: readonly Command[], tenants: ReadonlySet<string>, room: number): number {
  let taken = 0
  while (taken < pending.length && taken < room) {
    const command = pending[taken]!
    if ((command.kind === 'place' || command.kind === 'amend') && !tenants.has(command.request.tenantId)) break
    taken++
  }
  return taken
}
