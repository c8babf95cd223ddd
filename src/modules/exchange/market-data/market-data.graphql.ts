import { NOT_CATALOG_DATA } from '../../../graphql/answer-reuse/catalog-fields.ts'
import { builder } from '../../../graphql/builder.ts'
import { ANSWERS_ANONYMOUS } from '../../../graphql/root-fields.ts'
import { SymbolType } from '../symbols/symbols.graphql.ts'
import type { CandleRecord } from './candles.ts'
import { DEFAULT_CANDLES, MAX_CANDLES } from './market-data.schemas.ts'
import { candlesOf, listTickers, serverTime, type Ticker, tickerOf } from './market-data.ts'
import { CANDLE_INTERVALS } from './market-time.ts'

/** GraphQL parity of docs/market-data.md: `Symbol.ticker`, `Symbol.candles`, `tickers`, `serverTime`. */

const INTERVAL_NAMES = { '1m': 'M1', '5m': 'M5', '15m': 'M15', '1h': 'H1', '4h': 'H4', '1d': 'D1' } as const

const CandleIntervalEnum = builder.enumType('CandleInterval', {
  description: 'A candle length (REST spelling): `1m 5m 15m 1h 4h 1d`; `1d` is the market day of MARKET_TIMEZONE.',
  values: Object.fromEntries(CANDLE_INTERVALS.map((interval) => [INTERVAL_NAMES[interval], { value: interval, description: `REST \`${interval}\`` }])),
})

export const CandleType = builder.objectRef<CandleRecord>('Candle').implement({
  description: 'The trades of one interval: open, high, low, close, volumes and count.',
  fields: (t) => ({
    openTime: t.field({ type: 'DateTime', description: "The interval's first instant.", resolve: (c) => c.open_time }),
    closeTime: t.field({ type: 'DateTime', description: "The interval's last microsecond.", resolve: (c) => c.close_time }),
    open: t.expose('open', { type: 'Decimal' }),
    high: t.expose('high', { type: 'Decimal' }),
    low: t.expose('low', { type: 'Decimal' }),
    close: t.expose('close', { type: 'Decimal', description: 'The latest trade price of the interval.' }),
    volume: t.expose('volume', { type: 'Decimal', description: 'Base quantity traded.' }),
    quoteVolume: t.expose('quote_volume', { type: 'Decimal', description: 'Σ price × quantity, in the quote currency.' }),
    tradeCount: t.exposeInt('trade_count'),
  }),
})

const TickerType = builder.objectRef<Ticker>('Ticker').implement({
  description: 'The last 24 hours of a symbol, to the minute (same as GET /api/exchange/v1/symbols/<symbol>/ticker).',
  fields: (t) => ({
    symbol: t.exposeString('symbol'),
    lastPrice: t.expose('last_price', { type: 'Decimal', nullable: true, description: 'The latest trade price, however long ago.' }),
    openPrice: t.expose('open_price', { type: 'Decimal', nullable: true }),
    highPrice: t.expose('high_price', { type: 'Decimal', nullable: true }),
    lowPrice: t.expose('low_price', { type: 'Decimal', nullable: true }),
    volume: t.expose('volume', { type: 'Decimal' }),
    quoteVolume: t.expose('quote_volume', { type: 'Decimal' }),
    priceChange: t.expose('price_change', { type: 'Decimal', nullable: true }),
    priceChangePercent: t.expose('price_change_percent', { type: 'Decimal', nullable: true }),
    tradeCount: t.exposeInt('trade_count'),
    bestBid: t.expose('best_bid', { type: 'Decimal', nullable: true }),
    bestAsk: t.expose('best_ask', { type: 'Decimal', nullable: true }),
    referencePrice: t.expose('reference_price', { type: 'Decimal', nullable: true }),
    windowStart: t.field({ type: 'DateTime', resolve: (ticker) => ticker.window_start }),
    windowEnd: t.field({ type: 'DateTime', resolve: (ticker) => ticker.window_end }),
  }),
})

const ServerTimeType = builder.objectRef<ReturnType<typeof serverTime>>('ServerTime').implement({
  description: "The server's clock (same as GET /api/exchange/v1/time).",
  fields: (t) => ({
    serverTime: t.field({ type: 'DateTime', resolve: (time) => time.server_time }),
    epochMs: t.string({ description: 'Milliseconds since 1970-01-01T00:00:00Z (beyond a 32-bit Int: as text).', resolve: (time) => String(time.epoch_ms) }),
  }),
})

builder.objectField(SymbolType, 'ticker', (t) =>
  t.field({
    extensions: NOT_CATALOG_DATA,
    type: TickerType,
    description: 'Requires symbols:read. The last 24 hours, to the minute.',
    resolve: (symbol, _args, ctx) => tickerOf(ctx, symbol),
  }),
)

builder.objectField(SymbolType, 'candles', (t) =>
  t.field({
    extensions: NOT_CATALOG_DATA,
    type: [CandleType],
    description: 'Requires symbols:read. Oldest first; intervals without trades are left out; the newest is live.',
    args: {
      interval: t.arg({ type: CandleIntervalEnum, required: true }),
      from: t.arg({ type: 'DateTime', description: 'Opened at or after (with a zone). With it, the first `limit` candles from it.' }),
      to: t.arg({ type: 'DateTime', description: 'Opened at or before (with a zone). Without `from`, the latest `limit` up to it.' }),
      limit: t.arg.int({ description: `1 to ${MAX_CANDLES} (default ${DEFAULT_CANDLES}).` }),
    },
    resolve: async (symbol, args, ctx) => {
      const input: Record<string, unknown> = { interval: args.interval }
      if (args.from != null) input.from = args.from
      if (args.to != null) input.to = args.to
      if (args.limit != null) input.limit = String(args.limit)
      const items = await candlesOf(ctx, symbol, input)
      return items
    },
  }),
)

builder.queryField('tickers', (t) =>
  t.field({
    type: [TickerType],
    description: "Requires symbols:read. Every active symbol's ticker, in symbol order (same as GET /api/exchange/v1/tickers).",
    args: { offset: t.arg.int(), limit: t.arg.int({ description: '1 to 100 (default 100).' }) },
    resolve: async (_root, args, ctx) => {
      const input: Record<string, string> = {}
      if (args.offset != null) input.offset = String(args.offset)
      if (args.limit != null) input.limit = String(args.limit)
      return (await listTickers(ctx, input)).rows
    },
  }),
)

builder.queryField('serverTime', (t) =>
  t.field({
    type: ServerTimeType,
    description: "The server's clock; no token needed.",
    extensions: ANSWERS_ANONYMOUS,
    resolve: (_root, _args, ctx) => serverTime(ctx),
  }),
)
