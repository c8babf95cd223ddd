import { describe, expect, it } from 'vitest'

import { fillRecord } from '../fills/fill-records.ts'
import { orderRecord } from '../orders/order-records.ts'
import type { OrderRow } from '../orders/orders.repository.ts'
import { orderJson, tenantEventTail } from './event-payloads.ts'

const order = {
  uid: '018f0000-0000-7000-8000-000000000001',
  created_at: '2026-11-29 05:10:00.123456',
  updated_at: '2026-11-29 05:10:00.5',
  user_id: 'bank "quoted" \\ user',
  tenant_id: '018f0000-0000-7000-8000-0000000000aa',
  client_order_id: 'ünïcode\u001f"id"',
  symbol: 'ETH-USDT',
  side: 'buy',
  type: 'limit',
  quantity: '0.01',
  price: '3000.00',
  time_in_force: 'gtc',
  post_only: false,
  status: 'filled',
  filled_quantity: '0.01',
  filled_notional: '30.0000',
  average_price: '3000.00',
  cancel_reason: null,
  seq: 7,
  book_epoch: 3,
  hold: '0',
  hold_currency: 'USDT',
  fee_accrued: '0.03',
  stop_price: null,
  expire_at: null,
  is_deleted: false,
} as unknown as OrderRow

describe('tenantEventTail', () => {
  it('writes the text JSON.stringify writes for the event, without its opening brace', () => {
    const fill = fillRecord({
      uid: '018f0000-0000-7000-8000-0000000000f1',
      order_uid: order.uid,
      trade_uid: '018f0000-0000-7000-8000-0000000000e1',
      tenant_id: order.tenant_id,
      symbol: 'ETH-USDT',
      side: 'buy',
      role: 'taker',
      price: '3000.00',
      quantity: '0.01',
      fee: '0.03',
      fee_currency: 'USDT',
      created_at: order.updated_at,
    })
    for (const [type, withFill] of [
      ['fill', fill],
      ['order.updated', null],
      ['order.created', null],
    ] as const) {
      const whole = JSON.stringify({ type, created_at: order.updated_at, order: orderRecord(order), fill: withFill })
      expect(tenantEventTail(type, order.updated_at, orderJson(order), withFill)).toBe(`,${whole.slice(1)}`)
    }
  })
})
