import { JsonText } from '../../../http/responses.ts'
import type { DocumentedRoute } from '../../../http/router.ts'
import { symbolListJson, symbolRecord } from './symbol-records.ts'
import { symbolListQuery, symbolListSchema, symbolParams, symbolRecordSchema } from './symbols.schemas.ts'
import { currenciesOf, getSymbol, listSymbols, SYMBOLS_READ } from './symbols.ts'

const SYMBOLS = '/api/exchange/v1/symbols'

export const symbolRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: SYMBOLS,
    handler: async ({ ctx, query }) => ({ body: new JsonText(symbolListJson(await listSymbols(ctx, query))) }),
    doc: {
      operationId: 'listSymbols',
      summary: 'List symbols',
      description: "Tradable currency pairs with their trading rules and both currencies' display properties.",
      tag: 'exchange',
      scope: SYMBOLS_READ,
      query: symbolListQuery,
      responses: { 200: { description: 'One page of symbols', body: symbolListSchema } },
    },
  },
  {
    method: 'GET',
    path: `${SYMBOLS}/:symbol`,
    handler: async ({ ctx, params }) => {
      const row = await getSymbol(ctx, params.symbol!)
      return { body: symbolRecord(row, await currenciesOf(ctx.services.db, [row])) }
    },
    doc: {
      operationId: 'getSymbol',
      summary: 'One symbol',
      tag: 'exchange',
      scope: SYMBOLS_READ,
      params: symbolParams,
      responses: { 200: { description: 'The symbol', body: symbolRecordSchema } },
      errors: { not_found: 'No symbol has this name' },
    },
  },
]
