import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { checkAccounts } from '../src/modules/exchange/accounts/accounts.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { fundTenants } from './helpers/funding.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDERS, placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

/**
 * Generated order sequences through the real service (REST, database, matcher), each on a market
 * of its own, compared step by step with a reference model written plainly here: naive arrays,
 * integer arithmetic in tenths. Orders take every time in force and post-only; steps amend and
 * cancel one order or all of a tenant's. After every step the answer and the book must be the
 * model's; after every sequence the stored fills must satisfy every invariant of matching, and
 * the accounts every invariant of money.
 */

let server: TestServer
let tenants: TestClient[]

beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  tenants = await Promise.all([createTestClient(server), createTestClient(server), createTestClient(server)])
})
afterAll(async () => {
  await server?.close()
})

type Side = 'buy' | 'sell'
type TimeInForce = 'gtc' | 'ioc' | 'fok'
type Op =
  | { kind: 'limit'; tenant: number; side: Side; price: number; quantity: number; timeInForce: TimeInForce; postOnly: boolean }
  | { kind: 'market'; tenant: number; side: Side; quantity: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'amend'; pick: number; quantity: number | null; price: number | null }
  | { kind: 'cancel_all'; tenant: number; side: Side | null }

// Prices and quantities in tenths (the market has one decimal place for both).
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('limit' as const),
      tenant: fc.nat(2),
      side: fc.constantFrom<Side>('buy', 'sell'),
      price: fc.integer({ min: 95, max: 105 }),
      quantity: fc.integer({ min: 1, max: 30 }),
      timeInForce: fc.constantFrom<TimeInForce>('gtc', 'gtc', 'gtc', 'ioc', 'fok'),
      postOnly: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('market' as const),
      tenant: fc.nat(2),
      side: fc.constantFrom<Side>('buy', 'sell'),
      quantity: fc.integer({ min: 1, max: 40 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(50) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('amend' as const),
      pick: fc.nat(50),
      quantity: fc.option(fc.integer({ min: 1, max: 30 })),
      price: fc.option(fc.integer({ min: 95, max: 105 })),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('cancel_all' as const), tenant: fc.nat(2), side: fc.constantFrom<Side | null>('buy', 'sell', null) }),
  },
)

const text = (tenths: number) => (tenths % 10 === 0 ? String(tenths / 10) : (tenths / 10).toFixed(1))
/** Canonical decimal text, to compare values whatever their trailing zeros. */
const canon = (value: string | null) => (value === null ? null : String(Number(value)))

interface ModelOrder {
  uid: string
  tenant: number
  side: Side
  price: number | null
  quantity: number
  filled: number
  notional: number // tenths × tenths
  seq: number
  status: string
  cancelReason: string | null
  timeInForce: TimeInForce
  postOnly: boolean
}

/** The reference model: a list of resting orders, scanned naively for the best one each time. */
class Model {
  orders = new Map<string, ModelOrder>()
  resting: ModelOrder[] = []
  seq = 0
  fills: { maker: string; taker: string; price: number; quantity: number }[] = []
  /** Orders whose price or place an amend changed: their stored price and seq are not those they traded at. */
  moved = new Set<string>()

  /** The other side's orders an order could trade with, best first. */
  #candidates(order: ModelOrder): ModelOrder[] {
    const candidates = this.resting.filter(
      (r) => r.side !== order.side && (order.price === null || (order.side === 'buy' ? r.price! <= order.price : r.price! >= order.price)),
    )
    return candidates.sort((a, b) => (order.side === 'buy' ? a.price! - b.price! : b.price! - a.price!) || a.seq - b.seq)
  }

  #cancelled(order: ModelOrder, reason: string): void {
    order.status = 'cancelled'
    order.cancelReason = reason
  }

  place(order: ModelOrder): void {
    order.seq = ++this.seq
    this.orders.set(order.uid, order)
    this.#arrive(order)
  }

  /** A new order, or an amended one sent to the back: post-only and fill-or-kill first, then the sweep. */
  #arrive(order: ModelOrder): void {
    const candidates = this.#candidates(order)
    if (order.postOnly && candidates.length > 0) return this.#cancelled(order, 'post_only')
    if (order.timeInForce === 'fok') {
      let fillable = 0
      for (const maker of candidates) {
        if (maker.tenant === order.tenant) break
        fillable += maker.quantity - maker.filled
      }
      if (fillable < order.quantity - order.filled) return this.#cancelled(order, 'unfilled')
    }
    this.#sweep(order)
  }

  #sweep(order: ModelOrder): void {
    for (;;) {
      const remaining = order.quantity - order.filled
      if (remaining === 0) break
      const candidates = this.#candidates(order)
      if (candidates.length === 0) break
      const maker = candidates[0]!
      if (maker.tenant === order.tenant) {
        order.status = 'cancelled'
        order.cancelReason = 'self_trade'
        break
      }
      const quantity = Math.min(remaining, maker.quantity - maker.filled)
      this.fills.push({ maker: maker.uid, taker: order.uid, price: maker.price!, quantity })
      for (const o of [maker, order]) {
        o.filled += quantity
        o.notional += quantity * maker.price!
      }
      maker.status = maker.filled === maker.quantity ? 'filled' : 'partially_filled'
      if (maker.status === 'filled') this.resting = this.resting.filter((r) => r !== maker)
    }
    if (order.status !== 'cancelled') {
      if (order.filled === order.quantity) order.status = 'filled'
      else if (order.price === null || order.timeInForce !== 'gtc') this.#cancelled(order, 'unfilled')
      else {
        order.status = order.filled === 0 ? 'open' : 'partially_filled'
        this.resting.push(order)
      }
    }
  }

  /** The status an amend answers: 409 when the order no longer rests, 422 when it would not stay above its fills. */
  amend(uid: string, quantity: number | null, price: number | null): 200 | 409 | 422 {
    const order = this.resting.find((r) => r.uid === uid)
    if (!order) return 409
    if (quantity !== null && quantity <= order.filled) return 422
    const newQuantity = quantity ?? order.quantity
    const newPrice = price ?? order.price!
    if (newPrice === order.price && newQuantity === order.quantity) return 200
    if (newPrice === order.price && newQuantity < order.quantity) {
      order.quantity = newQuantity
      return 200
    }
    this.resting = this.resting.filter((r) => r !== order)
    this.moved.add(order.uid)
    order.quantity = newQuantity
    order.price = newPrice
    order.seq = ++this.seq
    if (order.postOnly && this.#candidates(order).length > 0) this.#cancelled(order, 'post_only')
    else this.#sweep(order)
    return 200
  }

  /** Cancels a tenant's resting orders (on one side, or both): their uids in acceptance order. */
  cancelAll(tenant: number, side: Side | null): string[] {
    const mine = this.resting.filter((r) => r.tenant === tenant && (side === null || r.side === side)).sort((a, b) => a.seq - b.seq)
    for (const order of mine) this.cancel(order.uid)
    return mine.map((o) => o.uid)
  }

  cancel(uid: string): boolean {
    const order = this.resting.find((r) => r.uid === uid)
    if (!order) return false
    this.resting = this.resting.filter((r) => r !== order)
    order.status = 'cancelled'
    order.cancelReason = 'user'
    return true
  }

  levels(side: Side) {
    const byPrice = new Map<number, { quantity: number; orders: number }>()
    for (const r of this.resting.filter((o) => o.side === side)) {
      const level = byPrice.get(r.price!) ?? { quantity: 0, orders: 0 }
      level.quantity += r.quantity - r.filled
      level.orders++
      byPrice.set(r.price!, level)
    }
    return [...byPrice.entries()]
      .sort(([a], [b]) => (side === 'buy' ? b - a : a - b))
      .map(([price, level]) => ({ price: canon(text(price)), quantity: canon(text(level.quantity)), orders: level.orders }))
  }
}

/** notional / filled at `places` decimals, half-even, as text: the average price the model expects. */
function average(order: ModelOrder, places: number): string | null {
  if (order.filled === 0) return null
  // notional is in hundredths, filled in tenths: the price is notional / filled tenths.
  const numerator = BigInt(order.notional) * 10n ** BigInt(places)
  const denominator = BigInt(order.filled) * 10n
  let quotient = numerator / denominator
  const twice = (numerator % denominator) * 2n
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) quotient++
  return canon((Number(quotient) / 10 ** places).toFixed(places))
}

describe('matching against a reference model', () => {
  it('answers every order and keeps the book as the model does, for generated sequences', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 30 }), async (ops) => {
        const symbol = await createMarket(
          server.services.db,
          { price_precision: 1, quantity_precision: 1, min_order_quantity: '0.1', tick_size: '0.1' },
          { funded: false },
        )
        await fundTenants(
          server.services.db,
          tenants.map((t) => t.tenantId),
          symbol.split('-'),
        )
        const model = new Model()
        const placed: string[] = []
        const checkBook = async () => {
          const book = (await server.request('GET', `/api/exchange/v1/symbols/${symbol}/book?depth=100`, { token: tenants[0]!.token })).body
          expect(book.bids.map((l: any) => ({ ...l, price: canon(l.price), quantity: canon(l.quantity) }))).toEqual(model.levels('buy'))
          expect(book.asks.map((l: any) => ({ ...l, price: canon(l.price), quantity: canon(l.quantity) }))).toEqual(model.levels('sell'))
        }
        const answered = (body: any, order: ModelOrder) =>
          expect({
            status: body.status,
            filled: canon(body.filled_quantity),
            average: canon(body.average_price),
            cancelReason: body.cancel_reason,
            quantity: canon(body.quantity),
            price: canon(body.price),
          }).toEqual({
            status: order.status,
            filled: canon(text(order.filled)),
            average: average(order, 9),
            cancelReason: order.cancelReason,
            quantity: canon(text(order.quantity)),
            price: order.price === null ? null : canon(text(order.price)),
          })
        for (const step of ops) {
          if (step.kind === 'amend') {
            if (placed.length === 0) continue
            const uid = placed[step.pick % placed.length]!
            const order = model.orders.get(uid)!
            const quantity = step.quantity ?? (step.price === null ? order.quantity : null)
            const body = { ...(quantity !== null && { quantity: text(quantity) }), ...(step.price !== null && { price: text(step.price) }) }
            const res = await server.request('PATCH', `${ORDERS}/${uid}`, { token: tenants[order.tenant]!.token, body })
            const expected = model.amend(uid, quantity, step.price)
            expect(res.status, JSON.stringify(res.body)).toBe(expected)
            if (expected === 200) answered(res.body, order)
            await checkBook()
            continue
          }
          if (step.kind === 'cancel_all') {
            const res = await server.request('DELETE', `${ORDERS}?symbol=${symbol}${step.side ? `&side=${step.side}` : ''}`, {
              token: tenants[step.tenant]!.token,
            })
            expect(res.status).toBe(200)
            const expected = model.cancelAll(step.tenant, step.side)
            expect(res.body.items.map((o: { uid: string }) => o.uid)).toEqual(expected)
            expect(res.body.cancelled).toBe(expected.length)
            await checkBook()
            continue
          }
          if (step.kind === 'cancel') {
            if (placed.length === 0) continue
            const uid = placed[step.pick % placed.length]!
            const owner = tenants[model.orders.get(uid)!.tenant]!
            const res = await server.request('DELETE', `${ORDERS}/${uid}`, { token: owner.token })
            const expected = model.cancel(uid)
            expect(res.status).toBe(expected ? 200 : 409)
            if (expected) expect(res.body).toMatchObject({ status: 'cancelled', cancel_reason: 'user' })
            continue
          }
          const client = tenants[step.tenant]!
          const body =
            step.kind === 'limit'
              ? {
                  symbol,
                  side: step.side,
                  type: 'limit',
                  quantity: text(step.quantity),
                  price: text(step.price),
                  time_in_force: step.timeInForce,
                  post_only: step.postOnly && step.timeInForce === 'gtc',
                }
              : { symbol, side: step.side, type: 'market', quantity: text(step.quantity) }
          const res = await placeOrder(server, client.token, body)
          expect(res.status, JSON.stringify(res.body)).toBe(201)
          const order: ModelOrder = {
            uid: res.body.uid,
            tenant: step.tenant,
            side: step.side,
            price: step.kind === 'limit' ? step.price : null,
            quantity: step.quantity,
            filled: 0,
            notional: 0,
            seq: 0,
            status: 'open',
            cancelReason: null,
            timeInForce: step.kind === 'limit' ? step.timeInForce : 'ioc',
            postOnly: step.kind === 'limit' && step.postOnly && step.timeInForce === 'gtc',
          }
          model.place(order)
          placed.push(order.uid)
          answered(res.body, order)
          await checkBook()
        }
        await checkStored(symbol, model)
      }),
      { numRuns: 15 },
    )
  })
})

/** What every stored order and fill of the market must satisfy, and agree with the model's. */
async function checkStored(symbol: string, model: Model): Promise<void> {
  const db = server.services.db
  const orders = await db.selectFrom('orders').selectAll().where('symbol', '=', symbol).execute()
  const fills = await db.selectFrom('fills').selectAll().where('symbol', '=', symbol).orderBy('created_at').orderBy('uid').execute()
  const trades = await db.selectFrom('trades').selectAll().where('symbol', '=', symbol).orderBy('sequence').execute()
  const byUid = new Map(orders.map((o) => [o.uid, o]))
  for (const order of orders) {
    const own = fills.filter((f) => f.order_uid === order.uid)
    const sum = own.reduce((n, f) => n + Math.round(Number(f.quantity) * 10), 0)
    expect(Math.round(Number(order.filled_quantity) * 10)).toBe(sum)
    expect(sum).toBeLessThanOrEqual(Math.round(Number(order.quantity) * 10))
    expect(order.status === 'filled').toBe(sum === Math.round(Number(order.quantity) * 10))
    expect(model.orders.get(order.uid)?.status).toBe(order.status)
    // Fill-or-kill never leaves a partial fill; post-only never trades as a taker.
    if (order.time_in_force === 'fok') expect([0, Math.round(Number(order.quantity) * 10)]).toContain(sum)
    if (order.post_only) expect(trades.filter((t) => t.taker_order_uid === order.uid)).toEqual([])
    // What an open order still holds is what its rest needs, never less (docs/accounts.md).
    if (order.status === 'filled' || order.status === 'cancelled') expect(Number(order.hold)).toBe(0)
  }
  expect((await checkAccounts(db)).discrepancies).toEqual([])
  // Every trade is two fills of the same price and quantity, one per side, never one tenant's.
  expect(fills).toHaveLength(trades.length * 2)
  const buys = fills.filter((f) => f.side === 'buy').reduce((n, f) => n + Number(f.quantity), 0)
  const sells = fills.filter((f) => f.side === 'sell').reduce((n, f) => n + Number(f.quantity), 0)
  expect(buys).toBeCloseTo(sells, 9)
  for (const trade of trades) {
    const maker = byUid.get(trade.maker_order_uid)!
    const taker = byUid.get(trade.taker_order_uid)!
    expect(maker.tenant_id).not.toBe(taker.tenant_id)
    if (!model.moved.has(maker.uid)) expect(Number(trade.price)).toBe(Number(maker.price))
    if (taker.price !== null && !model.moved.has(taker.uid))
      expect(taker.side === 'buy' ? Number(trade.price) <= Number(taker.price) : Number(trade.price) >= Number(taker.price)).toBe(true)
  }
  // At each price, makers were filled in acceptance order: a maker trades only once all earlier ones at its price are filled.
  for (const trade of trades) {
    const maker = byUid.get(trade.maker_order_uid)!
    if (model.moved.has(maker.uid)) continue
    const earlier = orders.filter((o) => o.side === maker.side && o.price === maker.price && o.seq < maker.seq && o.status !== 'cancelled')
    for (const o of earlier) expect(o.status).toBe('filled')
  }
  // And the stored trades are the model's, in order.
  expect(trades.map((t) => [t.maker_order_uid, t.taker_order_uid, canon(t.price), canon(t.quantity)])).toEqual(
    model.fills.map((f) => [f.maker, f.taker, canon(text(f.price)), canon(text(f.quantity))]),
  )
}
