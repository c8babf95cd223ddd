import type { Route } from '../../../http/router.ts'
import { fillEnvelope } from './fill-records.ts'
import { listFills } from './fills.ts'

export const fillRoutes: Route[] = [
  { method: 'GET', path: '/api/exchange/v1/fills', handler: async ({ ctx, query }) => ({ body: fillEnvelope(await listFills(ctx, query)) }) },
]
