import type { Page } from '../../../core/lists.ts'
import { JsonText } from '../../../http/rest-handler.ts'
import type { Route } from '../../../http/router.ts'
import { orderEnvelope, orderRecord } from './order-records.ts'
import type { OrderRow } from './orders.repository.ts'
import { cancelOrder, createOrder, getOrder, listOrders, validateOrder } from './orders.ts'

const ORDERS = '/api/exchange/v1/orders'

// Requests that shared one list statement (ReadCoalescer) share its rendering too.
const renderedLists = new WeakMap<Page<OrderRow>, JsonText>()
function renderedOnce(page: Page<OrderRow>): JsonText {
  let body = renderedLists.get(page)
  if (!body) {
    body = new JsonText(Buffer.from(JSON.stringify(orderEnvelope(page))))
    renderedLists.set(page, body)
  }
  return body
}

export const orderRoutes: Route[] = [
  {
    method: 'POST',
    path: ORDERS,
    handler: async ({ ctx, body }) => {
      const { order, created } = await createOrder(ctx, body)
      return { status: created ? 201 : 200, body: orderRecord(order) }
    },
  },
  {
    method: 'POST',
    path: `${ORDERS}/validate`,
    // A dry run: what placing the body would answer for a refused order, else 200 { valid: true }.
    handler: async ({ ctx, body }) => ({ body: await validateOrder(ctx, body) }),
  },
  { method: 'GET', path: ORDERS, handler: async ({ ctx, query }) => ({ body: renderedOnce(await listOrders(ctx, query)) }) },
  { method: 'GET', path: `${ORDERS}/:uid`, handler: async ({ ctx, params }) => ({ body: orderRecord(await getOrder(ctx, params.uid!)) }) },
  { method: 'DELETE', path: `${ORDERS}/:uid`, handler: async ({ ctx, params }) => ({ body: orderRecord(await cancelOrder(ctx, params.uid!)) }) },
]
