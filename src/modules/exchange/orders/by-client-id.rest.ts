import { z } from 'zod'

import type { DocumentedRoute } from '../../../http/router.ts'
import { cancelOrderByClientId, getOrderByClientId } from './by-client-id.ts'
import { orderRecord } from './order-records.ts'
import { orderRecordSchema } from './orders.schemas.ts'
import { ORDERS_READ, ORDERS_WRITE } from './orders.ts'

const BY_CLIENT_ID = '/api/exchange/v1/orders/by-client-id/:client_order_id'

const clientOrderIdParams = z.object({
  client_order_id: z.string().meta({
    description: "The bank's own id of the order (1–64 printable ASCII characters, URL-encoded); anything else names no order (404).",
    example: 'bank-42-0001',
  }),
})

export const byClientIdRoutes: DocumentedRoute[] = [
  {
    method: 'GET',
    path: BY_CLIENT_ID,
    handler: async ({ ctx, params }) => ({ body: orderRecord(await getOrderByClientId(ctx, params.client_order_id!)) }),
    doc: {
      operationId: 'getOrderByClientId',
      summary: 'One order, by client order id',
      description: "The order your tenant placed with this `client_order_id`, as `GET /orders/<uid>` answers it. Your tenant's orders only (admins too).",
      tag: 'exchange',
      scope: ORDERS_READ,
      params: clientOrderIdParams,
      responses: { 200: { description: 'The order', body: orderRecordSchema } },
      errors: { not_found: 'Your tenant has no order with this client_order_id' },
    },
  },
  {
    method: 'DELETE',
    path: BY_CLIENT_ID,
    handler: async ({ ctx, params }) => ({ body: orderRecord(await cancelOrderByClientId(ctx, params.client_order_id!)) }),
    doc: {
      operationId: 'cancelOrderByClientId',
      summary: 'Cancel an order, by client order id',
      description: 'Cancels, as `DELETE /orders/<uid>` does, the order your tenant placed with this `client_order_id`.',
      tag: 'exchange',
      scope: ORDERS_WRITE,
      params: clientOrderIdParams,
      responses: { 200: { description: 'The cancelled order', body: orderRecordSchema } },
      errors: { not_found: 'Your tenant has no order with this client_order_id', conflict: 'The order is already filled or cancelled' },
    },
  },
]
