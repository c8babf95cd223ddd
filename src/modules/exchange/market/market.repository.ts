import { sql } from 'kysely'

import type { Db } from '../../../db/database.ts'
import { bookChecksum, CHECKSUM_LEVELS, sideText } from './book-checksum.ts'

/** One price level of a book side: the remaining quantity of its orders, and how many there are. */
export interface BookLevel {
  price: string
  quantity: string
  orders: number
}

export interface BookSnapshot {
  /** The symbol's market sequence this snapshot reflects: apply the market events after it. */
  sequence: number
  /** CRC-32 of the best 10 asks then the best 10 bids, as rendered (docs/api.md, "Book integrity"). */
  checksum: number
  bids: BookLevel[]
  asks: BookLevel[]
}

/**
 * A level as JSON, its decimals with at least the symbol's places and no trailing zeros beyond
 * them, as book events write them (docs/api.md, "Events"): applying the events to a snapshot
 * gives the next snapshot exactly, and the same checksum.
 */
const LEVEL = sql`json_build_object('price', round(b.price, greatest(min_scale(b.price), p.price))::text,
    'quantity', round(b.quantity, greatest(min_scale(b.quantity), p.quantity))::text, 'orders', b.orders)`

/**
 * The best `depth` levels of each side and the market sequence, in one statement, so the levels
 * are exactly those after that sequence. Decimals travel as text inside the JSON, never as numbers.
 * With `group` (a positive decimal, as text), levels are merged by that price step: bids into the
 * step at or below them, asks into the step at or above.
 */
export async function readBook(db: Db, symbol: string, depth: number, group: string | null = null): Promise<BookSnapshot> {
  return (await readBooks(db, [symbol], depth, group)).get(symbol)!
}

/**
 * readBook for many symbols in one statement (GraphQL's `Symbol.orderBook` under a list of
 * symbols): each symbol's levels read through orders_levels_idx as for one. A symbol with no
 * orders has empty sides and sequence 0. At least CHECKSUM_LEVELS levels per side are read, for
 * the checksum, whatever `depth`. A grouped side is summed over all its orders (a bucket is not an
 * index order), so it costs what that side holds.
 */
export async function readBooks(db: Db, symbols: readonly string[], depth: number, group: string | null = null): Promise<Map<string, BookSnapshot>> {
  const books = new Map<string, BookSnapshot>()
  if (symbols.length === 0) return books
  const read = Math.max(depth, CHECKSUM_LEVELS)
  const side = (name: 'buy' | 'sell', order: 'asc' | 'desc') => {
    const direction = sql.raw(order)
    const open = sql`symbol = s.symbol and side = ${name} and status in ('open', 'partially_filled')`
    if (group === null) {
      return sql`(
      select json_agg(${LEVEL} order by b.price ${direction}) from (
        select price, sum(quantity - filled_quantity) as quantity, count(*)::int as orders
        from orders where ${open}
        group by price order by price ${direction} limit ${read}
      ) b)`
    }
    // Exact in numeric: a bid's step is its price less the remainder, an ask's the next multiple up.
    const step = sql`${group}::numeric`
    const bucket = name === 'buy' ? sql`price - mod(price, ${step})` : sql`price + mod(${step} - mod(price, ${step}), ${step})`
    return sql`(
      select json_agg(${LEVEL} order by b.price ${direction}) from (
        select bucket as price, sum(quantity - filled_quantity) as quantity, count(*)::int as orders
        from (select ${bucket} as bucket, quantity, filled_quantity from orders where ${open}) o
        group by bucket order by bucket ${direction} limit ${read}
      ) b)`
  }
  const { rows } = await sql<{ symbol: string; sequence: number; bids: BookLevel[] | null; asks: BookLevel[] | null }>`
    select s.symbol,
      coalesce((select market_sequence from symbol_books where symbol = s.symbol), 0)::int8 as sequence,
      ${side('buy', 'desc')} as bids,
      ${side('sell', 'asc')} as asks
    from unnest(${[...symbols]}::text[]) as s(symbol)
    left join lateral (
      select greatest(price_precision, 0) as price, greatest(quantity_precision, 0) as quantity from symbols where symbols.symbol = s.symbol
    ) p on true`.execute(db)
  for (const row of rows) {
    const bids = row.bids ?? []
    const asks = row.asks ?? []
    books.set(row.symbol, {
      sequence: row.sequence,
      checksum: bookChecksum(sideText(asks), sideText(bids)),
      bids: bids.slice(0, depth),
      asks: asks.slice(0, depth),
    })
  }
  return books
}

export interface TradeRow {
  uid: string
  symbol: string
  price: string
  quantity: string
  taker_side: 'buy' | 'sell'
  created_at: string
  sequence: number
}

const TRADE_COLUMNS = ['uid', 'symbol', 'price', 'quantity', 'taker_side', 'created_at', 'sequence'] as const

/** The symbol's latest `limit` trades, newest first, and how many it has had. */
export async function latestTrades(db: Db, symbol: string, limit: number): Promise<{ rows: TradeRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.selectFrom('trades').select(TRADE_COLUMNS).where('symbol', '=', symbol).orderBy('sequence', 'desc').limit(limit).execute(),
    db.selectFrom('symbol_books').select('trade_count').where('symbol', '=', symbol).executeTakeFirst(),
  ])
  return { rows, total: count?.trade_count ?? 0 }
}

/** The latest `limit` trades of each of many symbols, newest first, in one statement (one index walk each). */
export async function latestTradesOf(db: Db, symbols: readonly string[], limit: number): Promise<Map<string, TradeRow[]>> {
  const bySymbol = new Map<string, TradeRow[]>(symbols.map((symbol) => [symbol, []]))
  if (symbols.length === 0) return bySymbol
  const { rows } = await sql<TradeRow>`
    select t.* from unnest(${[...symbols]}::text[]) as s(symbol)
    cross join lateral (
      select ${sql.join(TRADE_COLUMNS.map((c) => sql.ref(c)))} from trades where trades.symbol = s.symbol order by sequence desc limit ${limit}
    ) t`.execute(db)
  for (const row of rows) bySymbol.get(row.symbol)?.push(row)
  return bySymbol
}
