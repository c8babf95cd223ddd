import { z } from 'zod'

import { intParam, MAX_LIMIT } from '../../../core/lists.ts'
import { decimalString, listEnvelopeSchema, timestampText } from '../../../core/response-schemas.ts'
import { customIssue, isoDateTime } from '../../../core/validation.ts'
import { CANDLE_INTERVALS } from './market-time.ts'

export const MAX_CANDLES = 1000
export const DEFAULT_CANDLES = 500

const dateTimeParam = (description: string) => isoDateTime.optional().meta({ description, example: '2026-11-25T00:00:00Z' })

/** `GET …/symbols/<symbol>/candles`. */
export const candlesQuery = z
  .strictObject({
    interval: z.enum(CANDLE_INTERVALS).meta({ description: 'The candle length: `1m 5m 15m 1h 4h 1d` (`1d`: the market day of `MARKET_TIMEZONE`).' }),
    from: dateTimeParam('Candles that opened at or after this (ISO 8601 with a time and a zone). With it, the first `limit` candles from it.'),
    to: dateTimeParam('Candles that opened at or before this (ISO 8601 with a time and a zone). Without `from`, the latest `limit` up to it.'),
    limit: intParam(1, MAX_CANDLES, DEFAULT_CANDLES, `Candles, at most ${MAX_CANDLES}.`),
  })
  .superRefine((query, ctx) => {
    if (query.from !== undefined && query.to !== undefined && query.from > query.to)
      customIssue(ctx, { path: ['to'], type: 'value_error.datetime.not_ge', msg: 'to must not be before from', input: query.to })
  })
export type CandlesQuery = z.infer<typeof candlesQuery>

/** `GET /api/exchange/v1/tickers`: a page of the active symbols' tickers. */
export const tickersQuery = z.strictObject({
  offset: intParam(0, undefined, 0, 'Tickers to skip (symbols in name order).'),
  limit: intParam(1, MAX_LIMIT, MAX_LIMIT, 'Tickers per page, at most 100.'),
})

// --- Answers (docs/contracts.md) ---

export const TICKER_FIELDS = [
  'symbol',
  'last_price',
  'open_price',
  'high_price',
  'low_price',
  'volume',
  'quote_volume',
  'price_change',
  'price_change_percent',
  'trade_count',
  'best_bid',
  'best_ask',
  'reference_price',
  'window_start',
  'window_end',
] as const

const price = (description: string) => decimalString.nullable().meta({ description })

export const tickerSchema = z
  .object({
    symbol: z.string().meta({ example: 'USD-IRR' }),
    last_price: price("The symbol's latest trade price, however long ago; null before its first trade."),
    open_price: price("The window's first trade price; null while nothing traded in the window."),
    high_price: price("The window's highest trade price; null while nothing traded in it."),
    low_price: price("The window's lowest trade price; null while nothing traded in it."),
    volume: decimalString.meta({ description: 'Base quantity traded in the window.' }),
    quote_volume: decimalString.meta({ description: 'Σ price × quantity of the window’s trades, in the quote currency.' }),
    price_change: price("The window's last trade price less its first; null while nothing traded in it."),
    price_change_percent: price('`price_change` as a percent of `open_price`, 2 places; null while nothing traded in the window.'),
    trade_count: z.int().min(0).meta({ description: 'Trades in the window.' }),
    best_bid: price('The highest resting buy price; null when no buy rests.'),
    best_ask: price('The lowest resting sell price; null when no sell rests.'),
    reference_price: price("Today's reference price (the daily price band's centre); null until one is set or rolled."),
    window_start: timestampText.meta({ description: 'The first instant counted: the start of the minute 23 h 59 min before the current one.' }),
    window_end: timestampText.meta({ description: 'The time of the request: every trade committed before it is counted.' }),
  })
  .meta({ id: 'Ticker' })

export const tickerListSchema = listEnvelopeSchema('TickerList', tickerSchema, TICKER_FIELDS)

export const candleShape = {
  open_time: timestampText.meta({ description: "The interval's first instant." }),
  close_time: timestampText.meta({ description: "The interval's last microsecond (the next one opens right after)." }),
  open: decimalString.meta({ description: "The interval's first trade price." }),
  high: decimalString,
  low: decimalString,
  close: decimalString.meta({ description: "The interval's latest trade price." }),
  volume: decimalString.meta({ description: 'Base quantity traded.' }),
  quote_volume: decimalString.meta({ description: 'Σ price × quantity, in the quote currency.' }),
  trade_count: z.int().min(1),
}

export const candleSchema = z.object(candleShape).meta({ id: 'Candle' })

export const candleListSchema = z
  .object({
    symbol: z.string().meta({ example: 'USD-IRR' }),
    interval: z.enum(CANDLE_INTERVALS),
    items: z.array(candleSchema).meta({ description: 'Oldest first; intervals without trades are left out; the newest may still be open.' }),
  })
  .meta({ id: 'CandleList' })

/** The body of a `candle` market event: the 1m candle its trade updated. */
export const candleEventBodySchema = z
  .object({ interval: z.literal('1m'), ...candleShape })
  .meta({ id: 'CandleUpdate', description: 'The 1m candle as the trade left it: replace the candle with the same `open_time`, or append it.' })

export const serverTimeSchema = z
  .object({
    server_time: timestampText.meta({ description: "The server's clock (UTC, as every timestamp of the API)." }),
    epoch_ms: z.int().meta({ description: 'The same instant in milliseconds since 1970-01-01T00:00:00Z.', example: 1764106200123 }),
  })
  .meta({ id: 'ServerTime' })
