import { sql } from 'kysely'

import type { Db } from '../../../db/database.ts'

/** One price level of a book side: the remaining quantity of its orders, and how many there are. */
export interface BookLevel {
  price: string
  quantity: string
  orders: number
}

export interface BookSnapshot {
  /** The symbol's market sequence this snapshot reflects: apply the market events after it. */
  sequence: number
  bids: BookLevel[]
  asks: BookLevel[]
}

/**
 * A level as JSON, its decimals with at least the symbol's places, as book events write them
 * (docs/api.md, "Events"): applying the events to a snapshot gives the next snapshot exactly.
 */
const LEVEL = sql`json_build_object('price', round(b.price, greatest(scale(b.price), p.price))::text,
    'quantity', round(b.quantity, greatest(scale(b.quantity), p.quantity))::text, 'orders', b.orders)`

/**
 * The best `depth` levels of each side and the market sequence, in one statement, so the levels
 * are exactly those after that sequence. Decimals travel as text inside the JSON, never as numbers.
 */
export async function readBook(db: Db, symbol: string, depth: number): Promise<BookSnapshot> {
  const { rows } = await sql<{ sequence: number; bids: BookLevel[] | null; asks: BookLevel[] | null }>`
    with places as (
      select greatest(price_precision, 0) as price, greatest(quantity_precision, 0) as quantity from symbols where symbol = ${symbol}
    ), bids as (
      select price, sum(quantity - filled_quantity) as quantity, count(*)::int as orders
      from orders where symbol = ${symbol} and side = 'buy' and status in ('open', 'partially_filled')
      group by price order by price desc limit ${depth}
    ), asks as (
      select price, sum(quantity - filled_quantity) as quantity, count(*)::int as orders
      from orders where symbol = ${symbol} and side = 'sell' and status in ('open', 'partially_filled')
      group by price order by price asc limit ${depth}
    )
    select
      coalesce((select market_sequence from symbol_books where symbol = ${symbol}), 0)::int8 as sequence,
      (select json_agg(${LEVEL} order by b.price desc) from bids b cross join places p) as bids,
      (select json_agg(${LEVEL} order by b.price asc) from asks b cross join places p) as asks`.execute(db)
  const row = rows[0]!
  return { sequence: row.sequence, bids: row.bids ?? [], asks: row.asks ?? [] }
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

/** The symbol's latest `limit` trades, newest first, and how many it has had. */
export async function latestTrades(db: Db, symbol: string, limit: number): Promise<{ rows: TradeRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('trades')
      .select(['uid', 'symbol', 'price', 'quantity', 'taker_side', 'created_at', 'sequence'])
      .where('symbol', '=', symbol)
      .orderBy('sequence', 'desc')
      .limit(limit)
      .execute(),
    db.selectFrom('symbol_books').select('trade_count').where('symbol', '=', symbol).executeTakeFirst(),
  ])
  return { rows, total: count?.trade_count ?? 0 }
}
