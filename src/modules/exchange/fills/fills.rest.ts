import type { DocumentedRoute } from '../../../http/router.ts'
import { ORDERS_READ } from '../orders/orders.ts'
import { fillEnvelope } from './fill-records.ts'
import { fillListQuery, fillListSchema } from './fills.schemas.ts'
import { listFills } from './fills.ts'

export const fillRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: '/api/exchange/v1/fills',
    handler: async ({ ctx, query }) => ({ body: fillEnvelope(await listFills(ctx, query)) }),
    doc: {
      operationId: 'listFills',
      summary: 'List fills',
      description: "Your tenant's fills, each a trade seen from one of your orders (admins: every tenant's, or one tenant's with `tenant_id`).",
      tag: 'exchange',
      scope: ORDERS_READ,
      query: fillListQuery,
      responses: { 200: { description: 'One page of fills', body: fillListSchema } },
      errors: { forbidden: '`tenant_id` names another tenant' },
    },
  },
]
