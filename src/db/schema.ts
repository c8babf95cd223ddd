import type { ColumnType, Generated } from 'kysely'

import type { AuditChainTable, AuditRecordTable, ClientAllowedAddressTable } from './audit.table.ts'
import type { Decimal, Timestamp } from './column-types.ts'
import type { DpopProofTable } from './dpop.table.ts'
import type { CancelDeadlineTable } from './order-limits.table.ts'
import type { WebhookDeliveryTable, WebhookEndpointTable } from './webhooks.table.ts'
import type { WithdrawalDestinationTable, WithdrawalLimitTable, WithdrawalTable, WithdrawalThresholdTable } from './withdrawals.table.ts'

export type { Decimal, Timestamp } from './column-types.ts'

/**
 * Every table as Kysely sees it: the leaf every repository and the database opener import, so no
 * import cycle runs through the database. Columns are as the migrations in `migrations/` make them.
 * A new area may declare its tables in its own `src/db/<area>.table.ts` (leaves too, importing only
 * `column-types.ts`) and list them in `Database` here.
 */
export interface Database {
  tenants: TenantTable
  clients: ClientTable
  signing_keys: SigningKeyTable
  sessions: SessionTable
  refresh_tokens: RefreshTokenTable
  currencies: CurrencyTable
  symbols: SymbolTable
  orders: OrderTable
  order_counts: OrderCountTable
  symbol_books: SymbolBookTable
  trades: TradeTable
  fills: FillTable
  tenant_events: TenantEventTable
  tenant_event_counters: TenantEventCounterTable
  market_events: MarketEventTable
  candles: CandleTable
  users: UserTable
  accounts: AccountTable
  ledger_entries: LedgerEntryTable
  collected_fees: CollectedFeeTable
  withdrawal_destinations: WithdrawalDestinationTable
  withdrawals: WithdrawalTable
  withdrawal_limits: WithdrawalLimitTable
  withdrawal_thresholds: WithdrawalThresholdTable
  audit_records: AuditRecordTable
  audit_chain: AuditChainTable
  client_allowed_addresses: ClientAllowedAddressTable
  dpop_proofs: DpopProofTable
  webhook_endpoints: WebhookEndpointTable
  webhook_deliveries: WebhookDeliveryTable
  cancel_deadlines: CancelDeadlineTable
}

export interface TenantTable {
  id: string
  name: string
  created_at: Timestamp
  updated_at: Timestamp
}

export interface ClientTable {
  id: string
  tenant_id: string
  name: string
  /** base64url SHA-256 of the secret; the secret itself is never stored. */
  secret_digest: string
  roles: string[]
  scopes: string[]
  is_active: Generated<boolean>
  /** Login, refresh and calls need a DPoP proof (docs/dpop.md). */
  dpop_required: Generated<boolean>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface SigningKeyTable {
  kid: string
  alg: string
  public_jwk: Record<string, unknown>
  private_key: string
  created_at: Timestamp
  activated_at: Timestamp
  retired_at: Timestamp | null
}

export interface SessionTable {
  id: string
  client_id: string
  tenant_id: string
  created_at: Timestamp
  expires_at: string
  revoked_at: string | null
  revoked_reason: string | null
}

export interface RefreshTokenTable {
  jti: string
  session_id: string
  client_id: string
  issued_at: Timestamp
  expires_at: string
  used_at: string | null
  revoked_at: string | null
  /** SHA-256 (hex) of the token as issued; null for tokens issued before it was kept. */
  token_sha256: string | null
}

export interface CurrencyTable {
  code: string
  name_fa: string
  name_en: string
  precision: number
  icon: string
  is_crypto: boolean
  color: string
  unit_value_irr: number
  created_at: Timestamp
  updated_at: Timestamp
}

export interface SymbolTable {
  uid: string
  created_at: Timestamp
  updated_at: Timestamp
  is_deleted: Generated<boolean>
  meta_data: Record<string, unknown> | null
  user_id: string
  symbol: string
  base: string
  quote: string
  price_precision: number
  quantity_precision: number
  min_order_quantity: Decimal
  tick_size: Decimal
  daily_fluctuation_price_limit_percent: Decimal
  description: Generated<string>
  is_active: Generated<boolean>
  reference_price: Decimal | null
  /** Percent of a fill's notional the resting (maker) and the arriving (taker) order pay, in the quote currency (migration 2026-12-04). */
  maker_fee_percent: ColumnType<string, string | undefined, string>
  taker_fee_percent: ColumnType<string, string | undefined, string>
  /** When `reference_price` was last set: by an operator, or the market day's start it was rolled for (migration 2026-12-05). */
  reference_price_at: ColumnType<string | null, string | null | undefined, string | null>
  /** Size limits (migration 2026-12-14): the largest quantity and the smallest price × quantity of an order; null: none. */
  max_order_quantity: ColumnType<string | null, string | null | undefined, string | null>
  min_notional: ColumnType<string | null, string | null | undefined, string | null>
}

export interface OrderTable {
  uid: string
  created_at: Timestamp
  updated_at: Timestamp
  is_deleted: Generated<boolean>
  meta_data: Record<string, unknown> | null
  user_id: string
  tenant_id: string
  client_order_id: string | null
  symbol: string
  side: 'buy' | 'sell'
  type: 'limit' | 'market' | 'stop_limit' | 'stop_market'
  quantity: Decimal
  price: Decimal | null
  /** gtc: rests until filled or cancelled; ioc: trades what its pass can, the rest cancelled; fok: all in its pass or nothing (migration 2026-12-06). */
  time_in_force: ColumnType<'gtc' | 'ioc' | 'fok' | 'gtd', 'gtc' | 'ioc' | 'fok' | 'gtd' | undefined, 'gtc' | 'ioc' | 'fok' | 'gtd'>
  /** Cancelled (`post_only`) rather than trade on arrival or on an amend that would cross. */
  post_only: ColumnType<boolean, boolean | undefined, boolean>
  /** `pending`: a stop order its trigger has not reached (migration 2026-12-13). */
  status: 'open' | 'partially_filled' | 'filled' | 'cancelled' | 'pending'
  filled_quantity: Generated<string>
  /** The quantity-weighted mean price of its fills; null until one. */
  average_price: ColumnType<string | null, string | null | undefined, string | null>
  /** Why a cancelled order was cancelled: by its owner, the unfilled rest of an immediate order, self-trade prevention, or a post-only order that would have traded. */
  cancel_reason: ColumnType<
    'user' | 'unfilled' | 'self_trade' | 'post_only' | 'deadline' | 'expired' | null,
    'user' | 'unfilled' | 'self_trade' | 'post_only' | 'deadline' | 'expired' | null | undefined,
    'user' | 'unfilled' | 'self_trade' | 'post_only' | 'deadline' | 'expired' | null
  >
  /** Σ price × quantity of its fills, exact: what `average_price` is computed from. */
  filled_notional: Generated<string>
  /** Its place in its symbol's acceptance order (time priority at a price). */
  seq: Generated<number>
  /** The book epoch of the matching pass that last wrote it (migration 2026-12-04). */
  book_epoch: Generated<number>
  /** What the order still holds of its tenant's account, in `hold_currency` (docs/accounts.md); released as it fills, the rest when it ends. */
  hold: ColumnType<string, string | undefined, string>
  /** The quote currency for a buy, the base currency for a sell; null for orders from before holds. */
  hold_currency: ColumnType<string | null, string | null | undefined, string | null>
  /** Σ price × quantity × fee percent / 100 of its fills, exact: it was charged this rounded up (docs/accounts.md). */
  fee_accrued: ColumnType<string, string | undefined, string>
  /** Stop orders: the trade price that triggers them (migration 2026-12-13). */
  stop_price: ColumnType<string | null, string | null | undefined, string | null>
  /** gtd orders: when they are cancelled `expired`, UTC. */
  expire_at: ColumnType<string | null, string | null | undefined, string | null>
}

/** Live orders per tenant, one row per shard; maintained by triggers on `orders` (migration 2026-11-28). */
export interface OrderCountTable {
  tenant_id: string
  shard: number
  live: number
}

export interface UserTable {
  uid: string
  created_at: Timestamp
  updated_at: Timestamp
  is_deleted: Generated<boolean>
  meta_data: Record<string, unknown> | null
  user_id: string
  tenant_id: string
  username: string
  email: string
  is_active: Generated<boolean>
}

/**
 * One row per symbol: locked by the transaction that matches the symbol (one at a time across
 * processes), its `epoch` bumped by every write to the symbol's book (migration 2026-12-02).
 */
export interface SymbolBookTable {
  symbol: string
  epoch: Generated<number>
  last_order_seq: Generated<number>
  /** The last market event's sequence, which the book snapshot reports. */
  market_sequence: Generated<number>
  trade_count: Generated<number>
  last_price: string | null
  last_trade_at: string | null
}

export interface TradeTable {
  uid: string
  created_at: Timestamp
  symbol: string
  price: Decimal
  quantity: Decimal
  taker_side: 'buy' | 'sell'
  sequence: number
  maker_order_uid: string
  taker_order_uid: string
}

/** One side of a trade, as its order's tenant sees it. */
export interface FillTable {
  uid: string
  created_at: Timestamp
  order_uid: string
  trade_uid: string
  tenant_id: string
  symbol: string
  side: 'buy' | 'sell'
  role: 'maker' | 'taker'
  price: Decimal
  quantity: Decimal
  /** What the order paid for this fill, in `fee_currency`: its negated `fee` ledger entry, 0 when none (migration 2026-12-08). */
  fee: Decimal
  fee_currency: string
}

/** A tenant's stream: every change of its orders, numbered without gaps (migration 2026-12-03). */
export interface TenantEventTable {
  tenant_id: string
  sequence: number
  type: 'order.created' | 'order.updated' | 'fill' | 'balance' | 'withdrawal'
  created_at: string
  /** The event's JSON body exactly as delivered. */
  payload: string
}

export interface TenantEventCounterTable {
  tenant_id: string
  last_sequence: number
}

/** A symbol's stream: trades, book level changes and candles, numbered by `symbol_books.market_sequence`. */
export interface MarketEventTable {
  symbol: string
  sequence: number
  type: 'trade' | 'book' | 'candle'
  created_at: string
  /** The event's JSON body exactly as delivered. */
  payload: string
}

/**
 * A candle: the trades of one symbol in one interval, kept by the matching pass in the step that
 * writes them (migration 2026-12-05). Intervals are aligned to MARKET_TIMEZONE's wall clock.
 */
export interface CandleTable {
  symbol: string
  interval: '1m' | '5m' | '15m' | '1h' | '4h' | '1d'
  open_time: string
  /** The interval's last microsecond. */
  close_time: string
  open: Decimal
  high: Decimal
  low: Decimal
  close: Decimal
  volume: Decimal
  quote_volume: Decimal
  trade_count: ColumnType<number, number, number>
}

/** One per (tenant, currency), made on first use; `balance ≥ hold ≥ 0` (migration 2026-12-04). */
export interface AccountTable {
  tenant_id: string
  currency: string
  balance: ColumnType<string, string | undefined, string>
  hold: ColumnType<string, string | undefined, string>
  updated_at: Timestamp
}

export type LedgerKind = 'deposit' | 'withdrawal' | 'trade' | 'fee'

/** Every change of a balance, never edited or deleted: an account's balance is the sum of its amounts. */
export interface LedgerEntryTable {
  uid: string
  created_at: Timestamp
  tenant_id: string
  currency: string
  /** Signed: credits positive, debits negative; never 0. */
  amount: Decimal
  balance_after: Decimal
  kind: LedgerKind
  order_uid: string | null
  trade_uid: string | null
  /** A transfer's idempotency key, unique per tenant; null for trades and fees. */
  reference: string | null
}

/** Fees the exchange center collected (and the rounding remainders of settlement), per currency in a few shards. */
export interface CollectedFeeTable {
  currency: string
  shard: number
  amount: ColumnType<string, string | undefined, string>
  updated_at: Timestamp
}
