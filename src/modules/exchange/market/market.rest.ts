import { makeHeads } from '../../../core/lists.ts'
import type { DocumentedRoute } from '../../../http/router.ts'
import { symbolParams } from '../symbols/symbols.schemas.ts'
import { SYMBOLS_READ } from '../symbols/symbols.ts'
import { bookQuery, orderBookSchema, TRADE_FIELDS, tradeListSchema, tradesQuery } from './market.schemas.ts'
import { getOrderBook, getTrades } from './market.ts'
import { tradeRecord } from './trade-records.ts'

const SYMBOL = '/api/exchange/v1/symbols/:symbol'
const tradeHeads = makeHeads(TRADE_FIELDS)

export const marketRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: `${SYMBOL}/book`,
    handler: async ({ ctx, params, query }) => {
      const { symbol, sequence, checksum, bids, asks } = await getOrderBook(ctx, params.symbol!, query)
      return { body: { symbol, sequence, checksum, bids, asks } }
    },
    doc: {
      operationId: 'getOrderBook',
      summary: "A symbol's order book",
      description:
        'What rests on each side, by price level (merged by a price step with `group`), with the market sequence it reflects and the checksum of its best 10 levels per side (docs/api.md, "Book integrity"). Public market data: no tenant appears in it.',
      tag: 'exchange',
      scope: SYMBOLS_READ,
      params: symbolParams,
      query: bookQuery,
      responses: { 200: { description: 'The book', body: orderBookSchema } },
      errors: { not_found: 'No symbol has this name' },
    },
  },
  {
    method: 'GET',
    path: `${SYMBOL}/trades`,
    handler: async ({ ctx, params, query }) => {
      const { rows, total, limit } = await getTrades(ctx, params.symbol!, query)
      return { body: { heads: tradeHeads, items: rows.map(tradeRecord), total, offset: 0, limit } }
    },
    doc: {
      operationId: 'listTrades',
      summary: "A symbol's latest trades",
      description: 'Public trades, newest first. `total` counts every trade of the symbol.',
      tag: 'exchange',
      scope: SYMBOLS_READ,
      params: symbolParams,
      query: tradesQuery,
      responses: { 200: { description: 'The latest trades', body: tradeListSchema } },
      errors: { not_found: 'No symbol has this name' },
    },
  },
]
