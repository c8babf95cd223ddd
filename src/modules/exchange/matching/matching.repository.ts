import { sql } from 'kysely'

import { type Db, executePrepared } from '../../../db/database.ts'
import { type AccountWrite, accountWrites } from '../accounts/accounts.repository.ts'
import {
  marketEventAppend,
  type MarketEventType,
  type MarketEventWrite,
  notifyExpression,
  tenantEventAppend,
  type TenantEventWrite,
} from '../event-log/event-log.ts'
import type { TenantEventType } from '../events/event-payloads.ts'
import { type CandleWrite, candleWrites } from '../market-data/market-data.repository.ts'
import type { OrderRow } from '../orders/orders.repository.ts'
import { ORDER_FIELDS } from '../orders/orders.schemas.ts'

// Every column of an order: the record's fields, and those the matcher keeps besides.
const ORDER_COLUMN_NAMES = [...ORDER_FIELDS, 'filled_notional', 'seq', 'book_epoch', 'hold', 'hold_currency', 'fee_accrued']
const ORDER_COLUMNS = sql.raw(ORDER_COLUMN_NAMES.join(', '))
const ORDER_COLUMNS_OF_O = sql.raw(ORDER_COLUMN_NAMES.map((name) => `o.${name}`).join(', '))

/** A symbol's book row, locked, with the symbol's trading rules as they stand now. */
export interface LockedBook {
  /** The database's clock when the pass began: every row and event the pass writes carries it. */
  now: string
  epoch: number
  last_order_seq: number
  market_sequence: number
  trade_count: number
  symbol: string
  is_active: boolean
  price_precision: number
  quantity_precision: number
  min_order_quantity: string
  tick_size: string
  daily_fluctuation_price_limit_percent: string
  reference_price: string | null
  max_order_quantity: string | null
  min_notional: string | null
  base: string
  quote: string
  maker_fee_percent: string
  taker_fee_percent: string
  base_precision: number
  quote_precision: number
}

/** An account's balance and hold as last committed. */
export interface AccountBalance {
  tenant_id: string
  currency: string
  balance: string
  hold: string
}

/**
 * Set for the rest of the pass's transaction, before its other statements are planned: a
 * connection keeps its first generic plan of the write statement, and one made while `orders` or
 * `accounts` was small scans them whole to update a few rows, for as long as nothing re-plans it
 * (autovacuum off, or behind), costing more as the table grows. Every statement of a pass reads
 * and writes rows by key, so its prepared statements also take their generic plan at once instead
 * of being planned again each time (docs/performance.md, "What bounds each scenario").
 */
const PASS_PLANNER = sql.raw(
  `set_config('enable_seqscan', 'off', true) || set_config('enable_hashjoin', 'off', true) || set_config('enable_mergejoin', 'off', true) ||
    set_config('plan_cache_mode', 'force_generic_plan', true) as planner`,
)

/**
 * Locks the symbol's book row until the transaction ends: whoever holds it is the one matcher of
 * the symbol, on every process. Undefined when the symbol does not exist (or was deleted). The row is made the first
 * time a symbol is matched (symbols added after migration 2026-12-02 have none yet). In the same
 * statement, the balances and holds of `tenants`' accounts in the symbol's base and quote as last
 * committed, unlocked: a step's write locks and re-checks those it changes (docs/accounts.md).
 */
export async function lockBook(db: Db, symbol: string, tenants: readonly string[]): Promise<(LockedBook & { accounts: AccountBalance[] }) | undefined> {
  const lock = () =>
    executePrepared(
      db,
      'lock_book',
      sql<LockedBook & { accounts: AccountBalance[] }>`
      select timezone('utc', now()) as now, b.epoch, b.last_order_seq, b.market_sequence, b.trade_count, s.symbol, s.is_active, s.price_precision,
        s.quantity_precision, s.min_order_quantity, s.tick_size, s.daily_fluctuation_price_limit_percent, s.reference_price,
        s.max_order_quantity, s.min_notional, s.base, s.quote, s.maker_fee_percent, s.taker_fee_percent, bc.precision as base_precision, qc.precision as quote_precision,
        (select coalesce(json_agg(json_build_object('tenant_id', a.tenant_id, 'currency', a.currency, 'balance', a.balance::text,
            'hold', a.hold::text)), '[]'::json)
          from accounts a where a.tenant_id = any(${tenants}::uuid[]) and a.currency in (s.base, s.quote)) as accounts,
        ${PASS_PLANNER}
      from symbol_books b join symbols s on s.symbol = b.symbol and not s.is_deleted
        join currencies bc on bc.code = s.base join currencies qc on qc.code = s.quote
      where b.symbol = ${symbol}
      for update of b`,
    )
  const { rows } = await lock()
  if (rows[0]) return rows[0]
  await sql`insert into symbol_books (symbol) select symbol from symbols where symbol = ${symbol} on conflict (symbol) do nothing`.execute(db)
  return (await lock()).rows[0]
}

/**
 * The placing tenants' accounts in the symbol's currencies, locked (in the one lock order of
 * accounts) until the pass commits: for a pass that lost its read of them to another writer (a
 * withdrawal, another symbol's pass), so its next try cannot lose again (docs/accounts.md, "Locks").
 */
export async function lockPlacingAccounts(db: Db, tenants: readonly string[], currencies: readonly string[]): Promise<AccountBalance[]> {
  const { rows } = await sql<AccountBalance>`
    select a.tenant_id, a.currency, a.balance::text as balance, a.hold::text as hold from accounts a
    where a.tenant_id = any(${tenants}::uuid[]) and a.currency = any(${currencies}::text[])
    order by a.tenant_id, a.currency
    for update of a`.execute(db)
  return rows
}

/** The symbol's open and partially filled orders, whole (events carry their records), in acceptance order. */
export async function loadRestingOrders(db: Db, symbol: string): Promise<OrderRow[]> {
  const { rows } = await sql<OrderRow>`
    select ${ORDER_COLUMNS} from orders
    where symbol = ${symbol} and status in ('open', 'partially_filled')
    union all select ${ORDER_COLUMNS} from orders where symbol = ${symbol} and status = 'pending'
    order by seq`.execute(db)
  return rows
}

/**
 * What other processes wrote to the symbol's book after `epoch`: every order a pass placed or
 * changed since, in acceptance order, for a copy of the book to catch up without reading it whole.
 */
export async function loadBookChanges(db: Db, symbol: string, epoch: number): Promise<OrderRow[]> {
  const { rows } = await executePrepared(
    db,
    'load_book_changes',
    sql<OrderRow>`select ${ORDER_COLUMNS} from orders where symbol = ${symbol} and book_epoch > ${epoch} order by seq`,
  )
  return rows
}

/** The symbols whose books hold orders (resting, or stops pending): the ones a process warms at start. */
export async function symbolsWithRestingOrders(db: Db): Promise<string[]> {
  const { rows } = await sql<{ symbol: string }>`
    select distinct symbol from orders where status in ('open', 'partially_filled')
    union select distinct symbol from orders where status = 'pending'`.execute(db)
  return rows.map((row) => row.symbol)
}

/** Orders already holding one of these (tenant, client_order_id) pairs. */
export async function findByClientOrderIds(db: Db, keys: readonly { tenantId: string; clientOrderId: string }[]): Promise<OrderRow[]> {
  if (keys.length === 0) return []
  const { rows } = await sql<OrderRow>`
    select ${ORDER_COLUMNS} from orders
    where (tenant_id, client_order_id) in (
      select * from unnest(${keys.map((k) => k.tenantId)}::uuid[], ${keys.map((k) => k.clientOrderId)}::text[])
    )`.execute(db)
  return rows
}

/** A new order as a match leaves it. */
export type PlacedOrder = Pick<
  OrderRow,
  | 'uid'
  | 'user_id'
  | 'tenant_id'
  | 'client_order_id'
  | 'side'
  | 'type'
  | 'quantity'
  | 'price'
  | 'time_in_force'
  | 'post_only'
  | 'status'
  | 'filled_quantity'
  | 'filled_notional'
  | 'average_price'
  | 'cancel_reason'
  | 'seq'
  | 'hold'
  | 'hold_currency'
  | 'fee_accrued'
  | 'stop_price'
  | 'expire_at'
>

/** An order already stored, as the match leaves it (an amend changes its quantity, price and place, `seq`). */
export type ChangedOrder = Pick<
  OrderRow,
  | 'uid'
  | 'quantity'
  | 'price'
  | 'seq'
  | 'status'
  | 'filled_quantity'
  | 'filled_notional'
  | 'average_price'
  | 'cancel_reason'
  | 'hold'
  | 'fee_accrued'
  | 'stop_price'
>

export interface TradeWrite {
  uid: string
  price: string
  quantity: string
  taker_side: 'buy' | 'sell'
  sequence: number
  maker_order_uid: string
  taker_order_uid: string
}

export interface FillWrite {
  uid: string
  order_uid: string
  trade_uid: string
  tenant_id: string
  side: 'buy' | 'sell'
  role: 'maker' | 'taker'
  price: string
  quantity: string
  fee: string
  fee_currency: string
}

export interface MatchWrite {
  /** When the pass began (`LockedBook.now`). */
  now: string
  /** The book row's epoch the pass read: the write happens only if it still is. */
  expectedEpoch: number
  tenantEvents: TenantEventWrite<TenantEventType>[]
  marketEvents: MarketEventWrite<MarketEventType>[]
  symbol: string
  placed: PlacedOrder[]
  changed: ChangedOrder[]
  trades: TradeWrite[]
  fills: FillWrite[]
  lastOrderSeq: number
  marketSequence: number
  /** The step's accounts, ledger entries and fees, locked and checked by `lockAccountChanges`. */
  accounts: AccountWrite
  /** NOTIFY payloads waking other processes' streams, sent when the transaction commits (docs/events.md). */
  notifications: string[]
  /** The candles of the step's trades and the reference price's roll (market-data/trades-recorded.ts). */
  candles: CandleWrite
}

const column = <T, K extends keyof T>(rows: readonly T[], key: K) => rows.map((row) => row[key])

/**
 * Everything one matching pass changed, in ONE statement: the book row (epoch bumped, sequences
 * advanced), the accounts, ledger entries and fees the step settled, the candles of its trades and
 * the reference price's roll, the new orders, the stored orders it filled or cancelled, trades,
 * fills, and the events of the tenants' and the symbol's streams. Every write hangs on the book
 * row still being at `expectedEpoch` (a fencing token), as do the notifications of the pass's last
 * step, and each order written is stamped with the new epoch: a pass computed from a book another
 * writer has moved past writes nothing and answers no rows. Answers every order the pass inserted
 * or changed. Trades and fills may refer to orders the same statement inserts: foreign keys are
 * checked at the statement's end.
 */
export async function writeMatch(db: Db, write: MatchWrite): Promise<OrderRow[]> {
  const { placed, changed, trades, fills, now } = write
  const lastTrade = trades.at(-1)
  const { rows } = await executePrepared(
    db,
    'write_match',
    sql<OrderRow>`
    with book as (
      update symbol_books set epoch = epoch + 1, last_order_seq = ${write.lastOrderSeq}, market_sequence = ${write.marketSequence},
        trade_count = trade_count + ${trades.length},
        last_price = coalesce(${lastTrade?.price ?? null}::numeric, last_price),
        last_trade_at = case when ${lastTrade !== undefined} then ${now}::timestamp(6) else last_trade_at end
      where symbol = ${write.symbol} and epoch = ${write.expectedEpoch}
      returning epoch, ${notifyExpression(write.notifications)} as notified
    ), ${accountWrites(write.accounts, now, 'book')}, ${candleWrites(write.candles, 'book')}, placed as (
      insert into orders (uid, created_at, updated_at, user_id, tenant_id, client_order_id, symbol, side, type, quantity, price,
        time_in_force, post_only, status, filled_quantity, filled_notional, average_price, cancel_reason, seq, book_epoch, hold,
        hold_currency, fee_accrued, stop_price, expire_at)
      select p.uid, ${now}::timestamp(6), ${now}::timestamp(6), p.user_id, p.tenant_id, p.client_order_id, ${write.symbol}, p.side,
        p.type, p.quantity, p.price, p.time_in_force, p.post_only, p.status, p.filled_quantity, p.filled_notional, p.average_price,
        p.cancel_reason, p.seq, book.epoch, p.hold, p.hold_currency, p.fee_accrued, p.stop_price, p.expire_at
      from unnest(${column(placed, 'uid')}::uuid[], ${column(placed, 'user_id')}::text[], ${column(placed, 'tenant_id')}::uuid[],
        ${column(placed, 'client_order_id')}::text[], ${column(placed, 'side')}::text[], ${column(placed, 'type')}::text[],
        ${column(placed, 'quantity')}::numeric[], ${column(placed, 'price')}::numeric[], ${column(placed, 'time_in_force')}::text[],
        ${column(placed, 'post_only')}::bool[], ${column(placed, 'status')}::text[],
        ${column(placed, 'filled_quantity')}::numeric[], ${column(placed, 'filled_notional')}::numeric[],
        ${column(placed, 'average_price')}::numeric[], ${column(placed, 'cancel_reason')}::text[], ${column(placed, 'seq')}::int8[],
        ${column(placed, 'hold')}::numeric[], ${column(placed, 'hold_currency')}::text[], ${column(placed, 'fee_accrued')}::numeric[],
        ${column(placed, 'stop_price')}::numeric[], ${column(placed, 'expire_at')}::timestamp(6)[])
        with ordinality as p(uid, user_id, tenant_id, client_order_id, side, type, quantity, price, time_in_force, post_only, status,
          filled_quantity, filled_notional, average_price, cancel_reason, seq, hold, hold_currency, fee_accrued, stop_price, expire_at, position)
        cross join book
      order by p.position
      returning ${ORDER_COLUMNS}
    ), changed as (
      update orders o set quantity = c.quantity, price = c.price, seq = c.seq, status = c.status, filled_quantity = c.filled_quantity,
        filled_notional = c.filled_notional, average_price = c.average_price, cancel_reason = c.cancel_reason,
        updated_at = ${now}::timestamp(6), book_epoch = book.epoch, hold = c.hold, fee_accrued = c.fee_accrued, stop_price = c.stop_price
      from unnest(${column(changed, 'uid')}::uuid[], ${column(changed, 'quantity')}::numeric[], ${column(changed, 'price')}::numeric[],
        ${column(changed, 'seq')}::int8[], ${column(changed, 'status')}::text[], ${column(changed, 'filled_quantity')}::numeric[],
        ${column(changed, 'filled_notional')}::numeric[], ${column(changed, 'average_price')}::numeric[], ${column(changed, 'cancel_reason')}::text[],
        ${column(changed, 'hold')}::numeric[], ${column(changed, 'fee_accrued')}::numeric[], ${column(changed, 'stop_price')}::numeric[])
        as c(uid, quantity, price, seq, status, filled_quantity, filled_notional, average_price, cancel_reason, hold, fee_accrued, stop_price)
        cross join book
      where o.uid = c.uid
      returning ${ORDER_COLUMNS_OF_O}
    ), traded as (
      insert into trades (uid, created_at, symbol, price, quantity, taker_side, sequence, maker_order_uid, taker_order_uid)
      select t.uid, ${now}::timestamp(6), ${write.symbol}, t.price, t.quantity, t.taker_side, t.sequence, t.maker_order_uid, t.taker_order_uid
      from unnest(${column(trades, 'uid')}::uuid[], ${column(trades, 'price')}::numeric[], ${column(trades, 'quantity')}::numeric[],
        ${column(trades, 'taker_side')}::text[], ${column(trades, 'sequence')}::int8[], ${column(trades, 'maker_order_uid')}::uuid[],
        ${column(trades, 'taker_order_uid')}::uuid[]) as t(uid, price, quantity, taker_side, sequence, maker_order_uid, taker_order_uid)
        cross join book
      returning uid
    ), filled as (
      insert into fills (uid, created_at, order_uid, trade_uid, tenant_id, symbol, side, role, price, quantity, fee, fee_currency)
      select f.uid, ${now}::timestamp(6), f.order_uid, f.trade_uid, f.tenant_id, ${write.symbol}, f.side, f.role, f.price, f.quantity,
        f.fee, f.fee_currency
      from unnest(${column(fills, 'uid')}::uuid[], ${column(fills, 'order_uid')}::uuid[], ${column(fills, 'trade_uid')}::uuid[],
        ${column(fills, 'tenant_id')}::uuid[], ${column(fills, 'side')}::text[], ${column(fills, 'role')}::text[],
        ${column(fills, 'price')}::numeric[], ${column(fills, 'quantity')}::numeric[], ${column(fills, 'fee')}::numeric[],
        ${column(fills, 'fee_currency')}::text[])
        as f(uid, order_uid, trade_uid, tenant_id, side, role, price, quantity, fee, fee_currency)
        cross join book
      returning uid
    ), ${tenantEventAppend(write.tenantEvents, now, 'book')}, ${marketEventAppend(write.symbol, write.marketEvents, now)}
    select * from placed
    union all select * from changed`,
  )
  return rows
}
