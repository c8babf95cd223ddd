import { makeHeads } from '../../../core/lists.ts'
import { JsonText } from '../../../http/responses.ts'
import type { DocumentedRoute } from '../../../http/router.ts'
import { symbolParams } from '../symbols/symbols.schemas.ts'
import { SYMBOLS_READ } from '../symbols/symbols.ts'
import { candleListSchema, candlesQuery, serverTimeSchema, TICKER_FIELDS, tickerListSchema, tickerSchema, tickersQuery } from './market-data.schemas.ts'
import { getCandlesJson, getTicker, listTickers, serverTime } from './market-data.ts'

const SYMBOL = '/api/exchange/v1/symbols/:symbol'
const tickerHeads = makeHeads(TICKER_FIELDS)

export const marketDataRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: `${SYMBOL}/ticker`,
    handler: async ({ ctx, params }) => ({ body: await getTicker(ctx, params.symbol!) }),
    doc: {
      operationId: 'getTicker',
      summary: "A symbol's 24-hour ticker",
      description:
        'The last 24 hours to the minute (the current minute and the 1,439 before it): first, high, low and last trade prices, volumes, trade count, the best bid and ask and the reference price. Every trade committed before the request is counted. Public market data: no tenant appears in it.',
      tag: 'exchange',
      scope: SYMBOLS_READ,
      params: symbolParams,
      responses: { 200: { description: 'The ticker', body: tickerSchema } },
      errors: { not_found: 'No symbol has this name' },
    },
  },
  {
    method: 'GET',
    path: '/api/exchange/v1/tickers',
    handler: async ({ ctx, query }) => {
      const { rows, total, offset, limit } = await listTickers(ctx, query)
      return { body: { heads: tickerHeads, items: rows, total, offset, limit } }
    },
    doc: {
      operationId: 'listTickers',
      summary: "Every active symbol's 24-hour ticker",
      description: 'The tickers of the active symbols, in symbol order, as `GET …/symbols/<symbol>/ticker` answers each.',
      tag: 'exchange',
      scope: SYMBOLS_READ,
      query: tickersQuery,
      responses: { 200: { description: 'A page of tickers', body: tickerListSchema } },
    },
  },
  {
    method: 'GET',
    path: `${SYMBOL}/candles`,
    handler: async ({ ctx, params, query }) => {
      const { symbol, interval, items } = await getCandlesJson(ctx, params.symbol!, query)
      return { body: new JsonText(Buffer.from(`{"symbol":${JSON.stringify(symbol)},"interval":"${interval}","items":${items}}`)) }
    },
    doc: {
      operationId: 'listCandles',
      summary: "A symbol's candles",
      description:
        'OHLC candles of one interval, oldest first; intervals without trades are left out. `1h` and `4h` candles are aligned to the wall clock of `MARKET_TIMEZONE` and `1d` candles are its market days. With `from`, the first `limit` candles from it; without, the latest `limit` (up to `to`). The newest candle is live: it includes every trade committed before the request.',
      tag: 'exchange',
      scope: SYMBOLS_READ,
      params: symbolParams,
      query: candlesQuery,
      responses: { 200: { description: 'The candles', body: candleListSchema } },
      errors: { not_found: 'No symbol has this name' },
    },
  },
  {
    method: 'GET',
    path: '/api/exchange/v1/time',
    access: 'public',
    handler: ({ ctx }) => ({ body: serverTime(ctx) }),
    doc: {
      operationId: 'getServerTime',
      summary: "The server's clock",
      description: 'For aligning a client clock with the one candles and tickers are computed with. No token needed.',
      tag: 'exchange',
      database: false,
      responses: { 200: { description: 'The time', body: serverTimeSchema } },
    },
  },
]
