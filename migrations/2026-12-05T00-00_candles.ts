import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * Market data (docs/market-data.md): one row per symbol, interval and interval start, kept by the
 * matching pass in the transaction that writes the trades (open kept, high/low widened, close the
 * latest trade's price, volumes and counts added), so candles and tickers never scan the trades;
 * the `candle` event type of the market stream; and when a symbol's reference price was last set
 * (by an operator or by the market day's roll), so the roll never overrides an operator's price
 * for the rest of the day it was set.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table candles (
      symbol text not null references symbols (symbol),
      interval text not null check (interval in ('1m', '5m', '15m', '1h', '4h', '1d')),
      open_time timestamp(6) not null,
      close_time timestamp(6) not null,
      open numeric not null check (open > 0),
      high numeric not null check (high > 0),
      low numeric not null check (low > 0),
      close numeric not null check (close > 0),
      volume numeric not null check (volume > 0),
      quote_volume numeric not null check (quote_volume > 0),
      trade_count bigint not null check (trade_count > 0),
      primary key (symbol, interval, open_time),
      check (close_time > open_time),
      check (low <= high)
    )`.execute(db)
  await sql`alter table market_events drop constraint market_events_type_check`.execute(db)
  await sql`alter table market_events add constraint market_events_type_check check (type in ('trade', 'book', 'candle'))`.execute(db)
  await sql`alter table symbols add column reference_price_at timestamp(6)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table symbols drop column reference_price_at`.execute(db)
  await sql`delete from market_events where type = 'candle'`.execute(db)
  await sql`alter table market_events drop constraint market_events_type_check`.execute(db)
  await sql`alter table market_events add constraint market_events_type_check check (type in ('trade', 'book'))`.execute(db)
  await sql`drop table candles`.execute(db)
}
