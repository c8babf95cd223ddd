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
