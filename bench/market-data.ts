import pg from 'pg'

/**
 * The market data scenario (issue 28): 1,000,000 trades stored on one symbol, one a second over
 * the last ~11.6 days, so every minute of the ticker's 24 hours has a candle, then the ticker and
 * 1,000 one-minute candles are read at 50 connections. Seeded by SQL (PostgreSQL only): the trades,
 * and the candles the matching pass would have kept for them, aggregated from the trades once
 * (the service itself never scans trades: docs/market-data.md).
 */
export const MARKET_DATA_SYMBOL = 'EUR-IRR'
export const MARKET_DATA_TRADES = 1_000_000

export async function seedTrades(databaseUrl: string, owner: { client_id: string; tenant_id: string }, zone = 'Asia/Tehran'): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query('begin')
    // Two filled orders every trade names as maker and taker (the foreign keys want real orders).
    const { rows } = await client.query<{ uid: string }>(
      `insert into orders (uid, user_id, tenant_id, symbol, side, type, quantity, price, status, filled_quantity, seq)
       select gen_random_uuid(), $1, $2::uuid, $3, side, 'limit', 1, 1, 'filled', 1, n
       from (values ('sell', 1), ('buy', 2)) as v(side, n)
       returning uid`,
      [owner.client_id, owner.tenant_id, MARKET_DATA_SYMBOL],
    )
    const [maker, taker] = rows.map((r) => r.uid)
    await client.query(
      `insert into trades (uid, created_at, symbol, price, quantity, taker_side, sequence, maker_order_uid, taker_order_uid)
       select gen_random_uuid(), timezone('utc', now()) - make_interval(secs => $2::int - i), $1,
         600000 + (i % 5000) * 10, 1 + (i % 7), case when i % 2 = 0 then 'buy' else 'sell' end, i, $3::uuid, $4::uuid
       from generate_series(1, $2::int) as i`,
      [MARKET_DATA_SYMBOL, MARKET_DATA_TRADES, maker, taker],
    )
    for (const [interval, width] of [
      ['1m', '1 minute'],
      ['5m', '5 minutes'],
      ['15m', '15 minutes'],
      ['1h', '1 hour'],
      ['4h', '4 hours'],
      ['1d', '1 day'],
    ] as const) {
      await client.query(
        `insert into candles (symbol, interval, open_time, close_time, open, high, low, close, volume, quote_volume, trade_count)
         select $1, $2, timezone('UTC', timezone($4, b)), timezone('UTC', timezone($4, b + $3::interval)) - interval '1 microsecond',
           (array_agg(price order by sequence))[1], max(price), min(price), (array_agg(price order by sequence desc))[1],
           sum(quantity), sum(price * quantity), count(*)
         from (select *, date_bin($3::interval, timezone($4, timezone('UTC', created_at)), '2000-01-01') as b from trades where symbol = $1) t
         group by b`,
        [MARKET_DATA_SYMBOL, interval, width, zone],
      )
    }
    await client.query(
      `insert into symbol_books (symbol, last_order_seq, market_sequence, trade_count, last_price, last_trade_at)
       select $1, 2, $2, $2, price, created_at from trades where symbol = $1 order by sequence desc limit 1
       on conflict (symbol) do update set last_order_seq = excluded.last_order_seq, market_sequence = excluded.market_sequence,
         trade_count = excluded.trade_count, last_price = excluded.last_price, last_trade_at = excluded.last_trade_at`,
      [MARKET_DATA_SYMBOL, MARKET_DATA_TRADES],
    )
    await client.query('commit')
    await client.query('analyze trades, candles')
  } finally {
    await client.end()
  }
}
