import { randomUUID } from 'node:crypto'

import { describe, expect, it } from 'vitest'

import { parseDecimal } from '../../../core/decimal.ts'
import type { OrderRow } from '../orders/orders.repository.ts'
import { PassAccounts } from '../settlement/settlement.ts'
import { MatchPass, type PlaceRequest, type StepWriter } from './match-pass.ts'
import type { LockedBook } from './matching.repository.ts'
import { WarmBook } from './warm-book.ts'

// A pass triggering stops ends its step once it has held the event loop TRIGGER_TURN_MS
// (docs/matching.md, "Stop orders and good till date"), on a clock the test moves: stops that only
// rest add no fill, so the fill bound alone would put all of them in one step.

const NOW = '2026-12-20 10:00:00.000000'
const [seller, buyer, stopper] = [randomUUID(), randomUUID(), randomUUID()]
const locked: LockedBook = {
  now: NOW,
  epoch: 1,
  last_order_seq: 0,
  market_sequence: 0,
  trade_count: 0,
  symbol: 'AAA-BBB',
  is_active: true,
  price_precision: 2,
  quantity_precision: 2,
  min_order_quantity: '0.01',
  tick_size: '0.01',
  daily_fluctuation_price_limit_percent: '100',
  reference_price: null,
  max_order_quantity: null,
  min_notional: null,
  base: 'AAA',
  quote: 'BBB',
  maker_fee_percent: '0.1',
  taker_fee_percent: '0.2',
  base_precision: 2,
  quote_precision: 2,
}

function order(fields: Partial<OrderRow> & Pick<OrderRow, 'tenant_id' | 'side' | 'type' | 'quantity' | 'status' | 'seq' | 'hold' | 'hold_currency'>): OrderRow {
  return {
    uid: randomUUID(),
    created_at: NOW,
    updated_at: NOW,
    is_deleted: false,
    meta_data: null,
    user_id: 'test',
    client_order_id: null,
    symbol: locked.symbol,
    price: null,
    time_in_force: 'gtc',
    post_only: false,
    filled_quantity: '0',
    filled_notional: '0',
    average_price: null,
    cancel_reason: null,
    book_epoch: 0,
    fee_accrued: '0',
    stop_price: null,
    expire_at: null,
    ...fields,
  }
}

/** A book with one ask at 11.00 and `stops` stop-limit buys at 10.00 whose limit (12.00) rests, triggered by one buy at 11.00. */
async function triggerResting(stops: number, turnClock: () => number) {
  const rows = [
    order({ tenant_id: seller, side: 'sell', type: 'limit', quantity: '1', price: '11.00', status: 'open', seq: 1, hold: '1', hold_currency: 'AAA' }),
  ]
  for (let i = 0; i < stops; i++)
    rows.push(
      order({
        tenant_id: stopper,
        side: 'buy',
        type: 'stop_limit',
        quantity: '1',
        price: '12.00',
        stop_price: '10.00',
        status: 'pending',
        seq: 2 + i,
        hold: '12.03',
        hold_currency: 'BBB',
      }),
    )
  const { warm } = WarmBook.load(rows, 1)
  const accounts = new PassAccounts(
    [seller, buyer, stopper].flatMap((tenant_id) => ['AAA', 'BBB'].map((currency) => ({ tenant_id, currency, balance: '1000000', hold: '0' }))),
  )
  const steps: OrderRow[][] = []
  const write: StepWriter = async (step) => {
    // The pass records whole rows in both lists.
    const written = [...step.placed, ...step.changed] as OrderRow[]
    steps.push(written)
    return written
  }
  const limits = { fillsPerStep: 100, ordersPerStep: 500, maxOpenOrdersPerSymbol: 100_000 }
  const pass = new MatchPass({ ...locked, last_order_seq: 1 + stops }, warm, accounts, limits, write, turnClock)
  const decimal = (text: string) => ({ text, value: parseDecimal(text)! })
  const request: PlaceRequest = {
    uid: randomUUID(),
    userId: 'test',
    tenantId: buyer,
    clientOrderId: null,
    symbol: locked.symbol,
    side: 'buy',
    type: 'limit',
    quantity: decimal('1'),
    price: decimal('11.00'),
    timeInForce: 'gtc',
    postOnly: false,
    parsed: { fields: {}, invalid: new Set() },
  }
  expect(await pass.place(request, [])).toEqual({ kind: 'placed', uid: request.uid })
  await pass.finish()
  return { steps, stopUids: rows.slice(1).map((r) => r.uid), book: warm.book }
}

describe('a pass triggering stops', () => {
  it('ends its step once it has held the event loop 10 ms, keeping the stops in their order', async () => {
    // Each read of the clock is 1 ms later.
    let now = 0
    const { steps, stopUids } = await triggerResting(40, () => now++)
    // The clock reads 1 at the pass's start and once per triggered stop: every tenth ends the step.
    // The first step also holds the trade's two orders.
    expect(steps.map((written) => written.filter((row) => row.type === 'stop_limit').length)).toEqual([10, 10, 10, 10])
    expect(steps.map((written) => written.length)).toEqual([12, 10, 10, 10])
    // Triggered in acceptance order, each a new arrival resting at 12.00 with the next seq.
    const written = steps.flat().filter((row) => row.type === 'stop_limit')
    expect(written.map((row) => row.uid)).toEqual(stopUids)
    expect(written.map((row) => [row.status, row.price, row.seq])).toEqual(stopUids.map((_, i) => ['open', '12.00', 43 + i]))
  })

  it('writes them in one step while the clock stands still (the fill bound alone)', async () => {
    const { steps } = await triggerResting(40, () => 0)
    expect(steps.length).toBe(1)
    expect(steps[0]!.filter((row) => row.type === 'stop_limit')).toHaveLength(40)
  })
})
