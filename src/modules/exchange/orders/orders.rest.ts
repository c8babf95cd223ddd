import type { Page } from '../../../core/lists.ts'
import { JsonText } from '../../../http/responses.ts'
import type { DocumentedRoute } from '../../../http/router.ts'
import { orderEnvelope, orderRecord } from './order-records.ts'
import type { OrderRow } from './orders.repository.ts'
import {
  amendOrderBody,
  cancelledOrdersSchema,
  cancelOrdersQuery,
  createOrderBody,
  orderListQuery,
  orderListSchema,
  orderParams,
  orderRecordSchema,
  orderValidationSchema,
} from './orders.schemas.ts'
import { amendOrder, cancelOrder, cancelOrders, createOrder, getOrder, listOrders, ORDERS_READ, ORDERS_WRITE, validateOrder } from './orders.ts'

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

const limitBuy = { symbol: 'USD-IRR', side: 'buy', type: 'limit', quantity: '1000', price: '1050000', client_order_id: 'bank-42-0001' }

export const orderRoutes: DocumentedRoute[] = [
  {
    method: 'POST',
    path: ORDERS,
    handler: async ({ ctx, body }) => {
      const { order, created } = await createOrder(ctx, body)
      return { status: created ? 201 : 200, body: orderRecord(order) }
    },
    doc: {
      operationId: 'createOrder',
      summary: 'Place an order',
      description: "Checked against the symbol's rules; `detail` lists every rule the order breaks, in field order.",
      tag: 'exchange',
      scope: ORDERS_WRITE,
      body: createOrderBody,
      bodyExamples: {
        limit: { summary: 'A limit buy with an idempotency key', value: limitBuy },
        market: { summary: 'A market sell', value: { symbol: 'USD-IRR', side: 'sell', type: 'market', quantity: '500' } },
        ioc: {
          summary: 'Immediate or cancel: what crosses now, the rest cancelled',
          value: { ...limitBuy, client_order_id: 'bank-42-0002', time_in_force: 'ioc' },
        },
        postOnly: { summary: 'Post-only: rests as a maker, or is cancelled', value: { ...limitBuy, client_order_id: 'bank-42-0003', post_only: true } },
      },
      responses: {
        201: { description: 'Placed', body: orderRecordSchema },
        200: { description: 'A retry: `client_order_id` names an order placed with the same body, which is answered as it is now', body: orderRecordSchema },
      },
      errors: { conflict: '`client_order_id` names an order placed with a different body' },
    },
  },
  {
    method: 'GET',
    path: ORDERS,
    handler: async ({ ctx, query }) => ({ body: renderedOnce(await listOrders(ctx, query)) }),
    doc: {
      operationId: 'listOrders',
      summary: 'List orders',
      description: "Your tenant's orders (admins: every tenant's).",
      tag: 'exchange',
      scope: ORDERS_READ,
      query: orderListQuery,
      responses: { 200: { description: 'One page of orders', body: orderListSchema } },
    },
  },
  {
    method: 'GET',
    path: `${ORDERS}/:uid`,
    handler: async ({ ctx, params }) => ({ body: orderRecord(await getOrder(ctx, params.uid!)) }),
    doc: {
      operationId: 'getOrder',
      summary: 'One order',
      tag: 'exchange',
      scope: ORDERS_READ,
      params: orderParams,
      responses: { 200: { description: 'The order', body: orderRecordSchema } },
      errors: { forbidden: "Another tenant's order", not_found: 'No order has this uid' },
    },
  },
  {
    method: 'DELETE',
    path: `${ORDERS}/:uid`,
    handler: async ({ ctx, params }) => ({ body: orderRecord(await cancelOrder(ctx, params.uid!)) }),
    doc: {
      operationId: 'cancelOrder',
      summary: 'Cancel an order',
      description: 'Cancels what is left of an open or partially filled order of your tenant.',
      tag: 'exchange',
      scope: ORDERS_WRITE,
      params: orderParams,
      responses: { 200: { description: 'The cancelled order', body: orderRecordSchema } },
      errors: { forbidden: "Another tenant's order (admins too)", not_found: 'No order has this uid', conflict: 'The order is already filled or cancelled' },
    },
  },
  {
    method: 'PATCH',
    path: `${ORDERS}/:uid`,
    handler: async ({ ctx, params, body }) => ({ body: orderRecord(await amendOrder(ctx, params.uid!, body)) }),
    doc: {
      operationId: 'amendOrder',
      summary: 'Amend an order',
      description:
        "Changes the quantity, the price or both of an open or partially filled order of your tenant, in its symbol's matching pass. A smaller quantity at the same price keeps its time priority; a new price or a larger quantity sends it to the back of its level and it may trade at once, as a new order would. Its hold follows the new values.",
      tag: 'exchange',
      scope: ORDERS_WRITE,
      params: orderParams,
      body: amendOrderBody,
      bodyExamples: {
        reduce: { summary: 'Reduce the quantity (keeps time priority)', value: { quantity: '500' } },
        reprice: { summary: 'Move the price (to the back of the new level)', value: { price: '1051000' } },
      },
      responses: { 200: { description: 'The order as its pass left it', body: orderRecordSchema } },
      errors: {
        forbidden: "Another tenant's order (admins too)",
        not_found: 'No order has this uid',
        conflict: 'The order is already filled or cancelled, or its symbol is not active',
      },
    },
  },
  {
    method: 'DELETE',
    path: ORDERS,
    handler: async ({ ctx, query }) => {
      const orders = await cancelOrders(ctx, query)
      return { body: { cancelled: orders.length, items: orders.map(orderRecord) } }
    },
    doc: {
      operationId: 'cancelOrders',
      summary: 'Cancel many orders',
      description:
        "Cancels every open or partially filled order of your tenant, on the symbols named (one or a comma-separated list) or all, one side or both. Admins name the tenant with `tenant_id`. Each symbol's orders are cancelled in its matching pass: an order not in `items` had traded first.",
      tag: 'exchange',
      scope: ORDERS_WRITE,
      query: cancelOrdersQuery,
      responses: { 200: { description: 'The cancelled orders', body: cancelledOrdersSchema } },
      errors: { forbidden: "Another tenant's orders" },
    },
  },
  {
    method: 'POST',
    path: `${ORDERS}/validate`,
    // A dry run: what placing the body would answer for a refused order, else 200 { valid: true }.
    handler: async ({ ctx, body }) => ({ body: await validateOrder(ctx, body) }),
    doc: {
      operationId: 'validateOrder',
      summary: 'Check an order without placing it',
      description:
        "A dry run of placing the body: the same checks against the symbol's rules and the same errors as `POST /orders`, nothing stored or matched. A `client_order_id` already used for a different order is a conflict, as placing it would be.",
      tag: 'exchange',
      scope: ORDERS_WRITE,
      body: createOrderBody,
      responses: { 200: { description: 'Placing this body would be accepted', body: orderValidationSchema } },
      errors: { conflict: '`client_order_id` names an order placed with a different body' },
    },
  },
]
