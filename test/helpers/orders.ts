import { randomUUID } from 'node:crypto'

import type { Matching } from '../../src/modules/exchange/matching/matching.ts'
import { parseOrderFields } from '../../src/modules/exchange/orders/orders.schemas.ts'
import type { TestClient } from './auth.ts'
import type { TestServer } from './server.ts'

export const ORDERS = '/api/exchange/v1/orders'

export const ORDER_KEYS = [
  'uid',
  'created_at',
  'updated_at',
  'is_deleted',
  'meta_data',
  'user_id',
  'tenant_id',
  'client_order_id',
  'symbol',
  'side',
  'type',
  'quantity',
  'price',
  'status',
  'filled_quantity',
  'average_price',
  'cancel_reason',
  'time_in_force',
  'post_only',
  'stop_price',
  'expire_at',
]

/** A valid limit order on the demo market. */
export const usdBuy = { symbol: 'USD-IRR', side: 'buy', type: 'limit', quantity: '1000', price: '1050000' }

export function placeOrder(server: TestServer, token: string, body: unknown) {
  return server.request('POST', ORDERS, { token, body })
}

/** A gtc limit order placed through `matching` directly (a matcher standing for another process); its row as the pass left it. */
export async function placeVia(
  matching: Matching,
  client: TestClient,
  body: { symbol: string; side: 'buy' | 'sell'; type: 'limit'; quantity: string; price: string },
) {
  const parsed = parseOrderFields(body)
  const outcome = await matching.place({
    uid: randomUUID(),
    userId: client.clientId,
    tenantId: client.tenantId,
    clientOrderId: null,
    symbol: body.symbol,
    side: body.side,
    type: 'limit',
    quantity: parsed.fields.quantity!,
    price: parsed.fields.price!,
    timeInForce: 'gtc',
    postOnly: false,
    parsed,
  })
  if (outcome.kind !== 'placed') throw new Error(JSON.stringify(outcome))
  return outcome.order
}
