import type { RequestContext } from '../../../core/context.ts'
import { echoed, notFound } from '../../../core/errors.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import { parseInput } from '../../../core/validation.ts'
import type { SymbolRow } from '../symbols/symbols.repository.ts'
import { getSymbol, SYMBOLS_READ } from '../symbols/symbols.ts'
import { activeSymbols, type CandleItem, type CandleQuery, readCandles, readCandlesJson, readTickers, type TickerRow } from './market-data.repository.ts'
import { candlesQuery, tickersQuery } from './market-data.schemas.ts'
import { type CandleInterval, intervalAt, timestampOf } from './market-time.ts'

/**
 * Market data for dashboards (docs/market-data.md): tickers and candles read from the candle rows
 * the matching pass keeps, never from the trades. Public: no tenant appears in them, and
 * `symbols:read` is enough. An unknown symbol is 404, as for the symbol itself.
 */

const MINUTE = 60_000
// The ticker's window: the current minute and the 1,439 before it.
const WINDOW_MINUTES = 1440

export type Ticker = Omit<TickerRow, never> & { window_start: string; window_end: string }

/** The 24-hour window ending at `now`, and the whole hours inside it (read from `1h` candles). */
export function tickerWindow(zone: string, now: number) {
  const start = Math.floor(now / MINUTE) * MINUTE - (WINDOW_MINUTES - 1) * MINUTE
  const first = intervalAt(zone, '1h', start)
  let hoursFrom = first.open === start ? start : first.next
  let hoursTo = intervalAt(zone, '1h', now).open
  if (hoursFrom >= hoursTo) hoursFrom = hoursTo = start
  return {
    query: { start: timestampOf(start), hoursFrom: timestampOf(hoursFrom), hoursTo: timestampOf(hoursTo) },
    window_start: formatTimestamp(timestampOf(start)),
    window_end: formatTimestamp(timestampOf(now)),
  }
}

async function tickersOf(ctx: RequestContext, symbols: readonly string[]): Promise<Ticker[]> {
  const { marketDay } = ctx.services
  const window = tickerWindow(marketDay.zone, marketDay.now())
  const rows = await readTickers(ctx.services.db, symbols, window.query)
  return rows.map((row) => ({ ...row, window_start: window.window_start, window_end: window.window_end }))
}

export async function getTicker(ctx: RequestContext, name: string): Promise<Ticker> {
  const symbol = await getSymbol(ctx, name)
  return (await tickersOf(ctx, [symbol.symbol]))[0]!
}

/** Every active symbol's ticker, a page of them in symbol order. */
export async function listTickers(ctx: RequestContext, input: unknown): Promise<{ rows: Ticker[]; total: number; offset: number; limit: number }> {
  await ctx.auth.require(SYMBOLS_READ)
  const { offset, limit } = parseInput(tickersQuery, input, 'query')
  const { symbols, total } = await activeSymbols(ctx.services.db, offset, limit)
  return { rows: await tickersOf(ctx, symbols), total, offset, limit }
}

function candleQuery(symbol: SymbolRow, input: unknown): CandleQuery {
  const query = parseInput(candlesQuery, input, 'query')
  return {
    symbol: symbol.symbol,
    interval: query.interval,
    from: query.from,
    to: query.to,
    limit: query.limit,
    pricePlaces: Math.max(0, symbol.price_precision),
    quantityPlaces: Math.max(0, symbol.quantity_precision),
  }
}

/** REST: the candles as one JSON text the database built. */
export async function getCandlesJson(ctx: RequestContext, name: string, input: unknown): Promise<{ symbol: string; interval: CandleInterval; items: string }> {
  const symbol = await getSymbol(ctx, name)
  const query = candleQuery(symbol, input)
  return { symbol: symbol.symbol, interval: query.interval, items: await readCandlesJson(ctx.services.db, query) }
}

/** GraphQL's `Symbol.candles` and `Symbol.ticker`, whose symbol is already read: the same checks as REST. */
export async function candlesOf(ctx: RequestContext, symbol: SymbolRow, input: unknown): Promise<CandleItem[]> {
  await liveMarket(ctx, symbol)
  return readCandles(ctx.services.db, candleQuery(symbol, input))
}

export async function tickerOf(ctx: RequestContext, symbol: SymbolRow): Promise<Ticker> {
  await liveMarket(ctx, symbol)
  return (await tickersOf(ctx, [symbol.symbol]))[0]!
}

async function liveMarket(ctx: RequestContext, symbol: SymbolRow): Promise<void> {
  await ctx.auth.require(SYMBOLS_READ)
  if (symbol.is_deleted) throw notFound(`Symbol ${echoed(symbol.symbol)} not found`)
}

/** `GET /api/exchange/v1/time`: the clock tickers and candles are computed with. */
export function serverTime(ctx: { services: { marketDay: { now: () => number } } }) {
  const now = ctx.services.marketDay.now()
  return { server_time: formatTimestamp(timestampOf(now)), epoch_ms: now }
}
