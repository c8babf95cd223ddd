import { sql } from 'kysely'

import { type Db, executePrepared } from '../../../db/database.ts'
import type { CandleRecord, StoredCandle } from './candles.ts'
import type { CandleInterval } from './market-time.ts'

/** One step's trades for the candles: all share the step's time, so they fall in one interval of each length. */
export interface CandleWrite {
  symbol: string
  /** The pass's time (`timestamp(6)` text, UTC): the trades' `created_at`. */
  now: string
  /** Each interval the trades fall in: its start and last microsecond (`timestamp(6)` text). */
  intervals: { interval: CandleInterval; open: string; close: string }[]
  /** The trades, in execution order: price and base quantity as stored. */
  prices: string[]
  quantities: string[]
  /** The market day `now` falls in, and the one before: the reference price rolls to that day's close. */
  dayStart: string | null
  previousDayStart: string | null
}

/** What a step that did not trade writes of candles: nothing (the same statement text, empty arrays). */
export const NO_CANDLES: Omit<CandleWrite, 'symbol' | 'now'> = { intervals: [], prices: [], quantities: [], dayStart: null, previousDayStart: null }

/**
 * Whether a symbol's reference price rolls to its last trade price at `dayStart` (docs/market-data.md,
 * "Market day"): it traded before the day began, the reference was not set since the day began
 * (an operator's price stands for the rest of the day; a roll for this day already happened), and
 * it traded during the previous day or after the reference was last set.
 */
const rollsAt = (dayStart: string | null, previousDayStart: string | null) => sql`
  b.last_price is not null and b.last_trade_at < ${dayStart}::timestamp(6)
  and (s.reference_price_at is null or s.reference_price_at < ${dayStart}::timestamp(6))
  and (b.last_trade_at >= ${previousDayStart}::timestamp(6) or s.reference_price_at is null or s.reference_price_at <= b.last_trade_at)`

/**
 * The candles of one step's trades, as common table expressions of the step's write (the match
 * write, `matching.repository.ts`), each hanging on `fence` (a CTE answering a row only while the
 * book row is at the epoch the step expects): every interval's candle inserted or widened (open
 * kept, high/low by GREATEST/LEAST, close the step's last price, volumes and counts added); on a
 * market day's first trade, the reference price rolled to the previous day's close. The book row
 * the roll reads is as it was before the statement (its last price before this step), as every
 * CTE of one statement sees the same snapshot. A step without trades writes nothing here.
 */
export function candleWrites(write: CandleWrite, fence: string) {
  const fenced = sql.raw(fence)
  return sql`candle_step as (
      select (array_agg(t.price order by t.n))[1] as open, max(t.price) as high, min(t.price) as low,
        (array_agg(t.price order by t.n desc))[1] as close, sum(t.quantity) as volume, sum(t.price * t.quantity) as quote_volume,
        count(*) as trade_count
      from unnest(${write.prices}::numeric[], ${write.quantities}::numeric[]) with ordinality as t(price, quantity, n)
      having count(*) > 0
    ), candles_written as (
      insert into candles as c (symbol, interval, open_time, close_time, open, high, low, close, volume, quote_volume, trade_count)
      select ${write.symbol}, i.interval, i.open_time, i.close_time, candle_step.open, candle_step.high, candle_step.low,
        candle_step.close, candle_step.volume, candle_step.quote_volume, candle_step.trade_count
      from unnest(${write.intervals.map((i) => i.interval)}::text[], ${write.intervals.map((i) => i.open)}::timestamp(6)[],
        ${write.intervals.map((i) => i.close)}::timestamp(6)[]) as i(interval, open_time, close_time)
        cross join candle_step cross join ${fenced}
      on conflict (symbol, interval, open_time) do update set
        high = greatest(c.high, excluded.high), low = least(c.low, excluded.low), close = excluded.close,
        volume = c.volume + excluded.volume, quote_volume = c.quote_volume + excluded.quote_volume,
        trade_count = c.trade_count + excluded.trade_count
      returning 1
    ), reference_rolled as (
      update symbols s set reference_price = b.last_price, reference_price_at = ${write.dayStart}::timestamp(6),
        updated_at = ${write.now}::timestamp(6)
      from symbol_books b cross join candle_step cross join ${fenced}
      where s.symbol = ${write.symbol} and b.symbol = s.symbol and ${rollsAt(write.dayStart, write.previousDayStart)}
      returning 1
    )`
}

/** The symbol's `1m` candle opened at `open` (`timestamp(6)` text), as stored; none: no trade in that minute yet. */
export async function readMinuteCandle(db: Db, symbol: string, open: string): Promise<StoredCandle | undefined> {
  const { rows } = await executePrepared(
    db,
    'read_minute_candle',
    sql<StoredCandle>`
    select open::text, high::text, low::text, close::text, volume::text, quote_volume::text, trade_count
    from candles where symbol = ${symbol} and interval = '1m' and open_time = ${open}::timestamp(6)`,
  )
  return rows[0]
}

/**
 * The market day's roll for every symbol at once (MarketDay, at each day's start): what the first
 * trade of the day would do, for the symbols that have not traded yet today. Answers how many rolled.
 */
export async function rollReferencePrices(db: Db, dayStart: string, previousDayStart: string): Promise<number> {
  const { rows } = await sql<{ symbol: string }>`
    update symbols s set reference_price = b.last_price, reference_price_at = ${dayStart}::timestamp(6),
      updated_at = timezone('utc', now())
    from symbol_books b
    where b.symbol = s.symbol and not s.is_deleted and ${rollsAt(dayStart, previousDayStart)}
    returning s.symbol`.execute(db)
  return rows.length
}

/** A decimal as every face prints candle and ticker values: trailing zeros dropped, then at least `places` digits. */
const printed = (value: ReturnType<typeof sql>, places: ReturnType<typeof sql>) =>
  sql`round(trim_scale(${value}), greatest(scale(trim_scale(${value})), ${places}))::text`

/** `timestamp(6)` as the API prints it: `2026-11-25T21:30:00.000000`. */
const timestampText = (value: ReturnType<typeof sql>) => sql`to_char(${value}, 'YYYY-MM-DD"T"HH24:MI:SS.US')`

export interface CandleQuery {
  symbol: string
  interval: CandleInterval
  /** `timestamp(6)` text (UTC): candles opened at or after it. */
  from?: string | undefined
  /** Candles opened at or before it. */
  to?: string | undefined
  limit: number
  pricePlaces: number
  quantityPlaces: number
}

/** A candle as the read prints it: the REST item's fields, decimals as text. */
export type CandleItem = CandleRecord

function candleRange(query: CandleQuery) {
  // With `from`: the first `limit` candles from it; without: the latest `limit` (up to `to`). Oldest first either way.
  const ascending = query.from !== undefined
  return sql`
    select * from candles
    where symbol = ${query.symbol} and interval = ${query.interval}
      and open_time >= coalesce(${query.from ?? null}::timestamp(6), '-infinity')
      and open_time <= coalesce(${query.to ?? null}::timestamp(6), 'infinity')
    order by open_time ${sql.raw(ascending ? 'asc' : 'desc')}
    limit ${query.limit}`
}

const itemColumns = (query: CandleQuery) => sql`
  ${timestampText(sql.ref('c.open_time'))} as open_time, ${timestampText(sql.ref('c.close_time'))} as close_time,
  ${printed(sql.ref('c.open'), sql.lit(query.pricePlaces))} as open, ${printed(sql.ref('c.high'), sql.lit(query.pricePlaces))} as high,
  ${printed(sql.ref('c.low'), sql.lit(query.pricePlaces))} as low, ${printed(sql.ref('c.close'), sql.lit(query.pricePlaces))} as close,
  ${printed(sql.ref('c.volume'), sql.lit(query.quantityPlaces))} as volume,
  ${printed(sql.ref('c.quote_volume'), sql.lit(query.pricePlaces))} as quote_volume, c.trade_count`

/** Candles of one symbol and interval, oldest first, read through the primary key (one index range). */
export async function readCandles(db: Db, query: CandleQuery): Promise<CandleItem[]> {
  const { rows } = await sql<CandleItem>`
    select ${itemColumns(query)} from (${candleRange(query)}) c order by c.open_time`.execute(db)
  return rows
}

/**
 * The same candles as one JSON array text, built by the database: a page of 1,000 candles is one
 * value to read and send, not 9,000 to parse and print again.
 */
export async function readCandlesJson(db: Db, query: CandleQuery): Promise<string> {
  const { rows } = await sql<{ items: string | null }>`
    select '[' || string_agg(
      '{"open_time":"' || i.open_time || '","close_time":"' || i.close_time || '","open":"' || i.open || '","high":"' || i.high
        || '","low":"' || i.low || '","close":"' || i.close || '","volume":"' || i.volume || '","quote_volume":"' || i.quote_volume
        || '","trade_count":' || i.trade_count || '}', ',' order by i.open_time) || ']' as items
    from (select ${itemColumns(query)} from (${candleRange(query)}) c) i`.execute(db)
  return rows[0]?.items ?? '[]'
}

export interface TickerRow {
  symbol: string
  last_price: string | null
  open_price: string | null
  high_price: string | null
  low_price: string | null
  volume: string
  quote_volume: string
  price_change: string | null
  price_change_percent: string | null
  trade_count: number
  best_bid: string | null
  best_ask: string | null
  reference_price: string | null
}

export interface TickerWindow {
  /** Start of the window (`timestamp(6)` text): the first minute counted. */
  start: string
  /** The first and last hour boundaries inside the window: whole hours are read from `1h` candles. */
  hoursFrom: string
  hoursTo: string
}

/**
 * The 24-hour tickers of `symbols` (docs/market-data.md, "Ticker"), in one statement: per symbol,
 * the window's candles — `1m` ones for the partial hours at its two ends, `1h` ones for the whole
 * hours between (at most ~140 rows however busy the market) — the best bid and ask through the
 * book's price index, the last trade price and the reference price.
 */
export async function readTickers(db: Db, symbols: readonly string[], window: TickerWindow): Promise<TickerRow[]> {
  if (symbols.length === 0) return []
  const { start, hoursFrom, hoursTo } = window
  const { rows } = await executePrepared(
    db,
    'read_tickers',
    sql<TickerRow>`
    select s.symbol,
      ${printed(sql.ref('b.last_price'), sql.ref('p.price'))} as last_price,
      ${printed(sql.ref('w.open'), sql.ref('p.price'))} as open_price,
      ${printed(sql.ref('w.high'), sql.ref('p.price'))} as high_price,
      ${printed(sql.ref('w.low'), sql.ref('p.price'))} as low_price,
      ${printed(sql`coalesce(w.volume, 0)`, sql.ref('p.quantity'))} as volume,
      ${printed(sql`coalesce(w.quote_volume, 0)`, sql.ref('p.price'))} as quote_volume,
      ${printed(sql`w.close - w.open`, sql.ref('p.price'))} as price_change,
      round((w.close - w.open) * 100 / w.open, 2)::text as price_change_percent,
      coalesce(w.trade_count, 0)::int8 as trade_count,
      ${printed(sql`(select max(price) from orders where symbol = s.symbol and side = 'buy' and status in ('open', 'partially_filled'))`, sql.ref('p.price'))}
        as best_bid,
      ${printed(sql`(select min(price) from orders where symbol = s.symbol and side = 'sell' and status in ('open', 'partially_filled'))`, sql.ref('p.price'))}
        as best_ask,
      ${printed(sql.ref('p.reference_price'), sql.ref('p.price'))} as reference_price
    from unnest(${[...symbols]}::text[]) with ordinality as s(symbol, n)
    join lateral (
      select greatest(price_precision, 0) as price, greatest(quantity_precision, 0) as quantity, reference_price
      from symbols where symbols.symbol = s.symbol
    ) p on true
    left join symbol_books b on b.symbol = s.symbol
    left join lateral (
      select (array_agg(c.open order by c.open_time))[1] as open, (array_agg(c.close order by c.open_time desc))[1] as close,
        max(c.high) as high, min(c.low) as low, sum(c.volume) as volume, sum(c.quote_volume) as quote_volume, sum(c.trade_count) as trade_count
      from (
        select * from candles where symbol = s.symbol and interval = '1m' and open_time >= ${start}::timestamp(6)
          and open_time < ${hoursFrom}::timestamp(6)
        union all
        select * from candles where symbol = s.symbol and interval = '1h' and open_time >= ${hoursFrom}::timestamp(6)
          and open_time < ${hoursTo}::timestamp(6)
        union all
        select * from candles where symbol = s.symbol and interval = '1m' and open_time >= greatest(${hoursTo}::timestamp(6), ${start}::timestamp(6))
      ) c
      having count(*) > 0
    ) w on true
    order by s.n`,
  )
  return rows
}

/** The active symbols, by name, one page of them, and how many there are. */
export async function activeSymbols(db: Db, offset: number, limit: number): Promise<{ symbols: string[]; total: number }> {
  const { rows } = await sql<{ symbol: string; total: number }>`
    select symbol, count(*) over ()::int8 as total from symbols where is_active and not is_deleted
    order by symbol offset ${offset} limit ${limit}`.execute(db)
  if (rows.length > 0) return { symbols: rows.map((r) => r.symbol), total: rows[0]!.total }
  const { rows: counted } = await sql<{ total: number }>`select count(*)::int8 as total from symbols where is_active and not is_deleted`.execute(db)
  return { symbols: [], total: counted[0]?.total ?? 0 }
}
