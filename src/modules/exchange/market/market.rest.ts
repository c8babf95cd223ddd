import { makeHeads } from '../../../core/lists.ts'
import type { Route } from '../../../http/router.ts'
import { TRADE_FIELDS } from './market.schemas.ts'
import { getOrderBook, getTrades } from './market.ts'
import { tradeRecord } from './trade-records.ts'

const SYMBOL = '/api/exchange/v1/symbols/:symbol'
const tradeHeads = makeHeads(TRADE_FIELDS)

export const marketRoutes: Route[] = [
  {
    method: 'GET',
    path: `${SYMBOL}/book`,
    handler: async ({ ctx, params, query }) => {
      const { symbol, sequence, bids, asks } = await getOrderBook(ctx, params.symbol!, query)
      return { body: { symbol, sequence, bids, asks } }
    },
  },
  {
    method: 'GET',
    path: `${SYMBOL}/trades`,
    handler: async ({ ctx, params, query }) => {
      const { rows, total, limit } = await getTrades(ctx, params.symbol!, query)
      return { body: { heads: tradeHeads, items: rows.map(tradeRecord), total, offset: 0, limit } }
    },
  },
]
