import { JsonText } from '../../../http/rest-handler.ts'
import type { Route } from '../../../http/router.ts'
import { symbolListJson, symbolRecord } from './symbol-records.ts'
import { currenciesOf, getSymbol, listSymbols } from './symbols.ts'

const SYMBOLS = '/api/exchange/v1/symbols'

export const symbolRoutes: Route[] = [
  {
    method: 'GET',
    path: SYMBOLS,
    handler: async ({ ctx, query }) => ({ body: new JsonText(symbolListJson(await listSymbols(ctx, query))) }),
  },
  {
    method: 'GET',
    path: `${SYMBOLS}/:symbol`,
    handler: async ({ ctx, params }) => {
      const row = await getSymbol(ctx, params.symbol!)
      return { body: symbolRecord(row, await currenciesOf(ctx.services.db, [row])) }
    },
  },
]
