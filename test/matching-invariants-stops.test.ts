import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { add, decimalFromStore, formatDecimal, ZERO } from '../src/core/decimal.ts'
import { formatTimestamp } from '../src/core/timestamps.ts'
import { checkAccounts } from '../src/modules/exchange/accounts/accounts.ts'
import { timestampOf } from '../src/modules/exchange/market-data/market-time.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { fundTenants } from './helpers/funding.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDERS, placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

/**
 * The generated-sequence model of matching (matching-invariants.test.ts) with stops, gtd and the
 * cancel-after deadline: limit, market, stop-limit and stop-market orders, gtd expiries and
 * deadlines driven by the service's clocks, cancels and stop-price amends, through the real
 * service, against a plain model. After every step the answer, the book, the pending stops and
 * every order's status and reason must be the model's, and each tenant's account holds (as the API
 * answers them) must equal its open and pending orders' holds; after every sequence, the stored
 * trades must be the model's, no stop may have traded before a trade since its stop price was set
 * reached it, and the accounts must pass the account check.
 */

let server: TestServer
let tenants: TestClient[]
const T0 = Date.parse('2026-12-20T10:00:00Z')
let now = T0

beforeAll(async () => {
  server = await startTestServer()
  server.services.matching.clock = () => now
  server.services.cancelDeadlines.now = () => now
  // Only the ticks sweep deadlines: a background sweep that found a deadline could send its cancel
  // after the tick's own sweep returned, and cancel an order the next step placed.
  await server.services.cancelDeadlines.stop()
  tenants = await Promise.all([createTestClient(server), createTestClient(server), createTestClient(server)])
})
afterAll(async () => {
  await server?.close()
})

type Side = 'buy' | 'sell'
type Op =
  | { kind: 'limit'; tenant: number; side: Side; price: number; quantity: number; gtd: number | null }
  | { kind: 'market'; tenant: number; side: Side; quantity: number }
  | { kind: 'stop'; tenant: number; side: Side; stop: number; price: number | null; quantity: number; gtd: number | null }
  | { kind: 'cancel'; pick: number }
  | { kind: 'move_stop'; pick: number; stop: number }
  | { kind: 'tick'; seconds: number }
  | { kind: 'deadline'; tenant: number; seconds: number }

const side = fc.constantFrom<Side>('buy', 'sell')
const price = fc.integer({ min: 95, max: 105 })
const gtd = fc.option(fc.integer({ min: 1, max: 5 }), { freq: 3 })
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('limit' as const), tenant: fc.nat(2), side, price, quantity: fc.integer({ min: 1, max: 30 }), gtd }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('market' as const), tenant: fc.nat(2), side, quantity: fc.integer({ min: 1, max: 40 }) }) },
  {
    weight: 4,
    arbitrary: fc
      .record({
        kind: fc.constant('stop' as const),
        tenant: fc.nat(2),
        side,
        stop: price,
        // Stop-market buys would hold all that is available (the market has no reference price): stop-limit only.
        price: fc.option(price, { freq: 3 }),
        quantity: fc.integer({ min: 1, max: 20 }),
        gtd,
        // Half the stop-limits priced just past their stop, as desks price them: once triggered, they trade.
        near: fc.boolean(),
      })
      .map(({ near, ...stop }) => (near && stop.price !== null ? { ...stop, price: stop.stop + (stop.side === 'buy' ? 2 : -2) } : stop)),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(50) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('move_stop' as const), pick: fc.nat(50), stop: price }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('tick' as const), seconds: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deadline' as const), tenant: fc.nat(2), seconds: fc.integer({ min: 1, max: 3 }) }) },
)

const text = (tenths: number) => (tenths % 10 === 0 ? String(tenths / 10) : (tenths / 10).toFixed(1))
const canon = (value: string | null) => (value === null ? null : String(Number(value)))

interface ModelOrder {
  uid: string
  tenant: number
  side: Side
  price: number | null
  stop: number | null
  quantity: number
  filled: number
  seq: number
  status: string
  cancelReason: string | null
  rests: boolean
  expireAt: number | null
  /** Trades printed before its stop price was last set: only later ones may trigger it. */
  since: number
}

class Model {
  orders = new Map<string, ModelOrder>()
  resting: ModelOrder[] = []
  pending: ModelOrder[] = []
  seq = 0
  fills: { maker: string; taker: string; price: number; quantity: number }[] = []
  /** Per tenant, when its cancel-after deadline fires (ms), if armed. */
  deadlines = new Map<number, number>()
  #printed: number[] = []

  #candidates(order: ModelOrder): ModelOrder[] {
    const fit = this.resting.filter(
      (r) => r.side !== order.side && (order.price === null || (order.side === 'buy' ? r.price! <= order.price : r.price! >= order.price)),
    )
    return fit.sort((a, b) => (order.side === 'buy' ? a.price! - b.price! : b.price! - a.price!) || a.seq - b.seq)
  }

  place(order: ModelOrder): void {
    order.seq = ++this.seq
    order.since = this.fills.length
    this.orders.set(order.uid, order)
    if (order.stop !== null) {
      order.status = 'pending'
      this.pending.push(order)
      return
    }
    this.#sweep(order)
    this.#trigger()
  }

  #sweep(order: ModelOrder): void {
    for (;;) {
      const remaining = order.quantity - order.filled
      const maker = this.#candidates(order)[0]
      if (remaining === 0 || !maker) break
      if (maker.tenant === order.tenant) {
        order.status = 'cancelled'
        order.cancelReason = 'self_trade'
        return
      }
      const quantity = Math.min(remaining, maker.quantity - maker.filled)
      this.fills.push({ maker: maker.uid, taker: order.uid, price: maker.price!, quantity })
      if (this.pending.length > 0) this.#printed.push(maker.price!)
      maker.filled += quantity
      order.filled += quantity
      maker.status = maker.filled === maker.quantity ? 'filled' : 'partially_filled'
      if (maker.status === 'filled') this.resting = this.resting.filter((r) => r !== maker)
    }
    if (order.filled === order.quantity) order.status = 'filled'
    else if (!order.rests) {
      order.status = 'cancelled'
      order.cancelReason = 'unfilled'
    } else {
      order.status = order.filled === 0 ? 'open' : 'partially_filled'
      this.resting.push(order)
    }
  }

  /** docs/matching.md: per trade, the stops it reaches, furthest from its price first, then acceptance; each arrives in turn. */
  #trigger(): void {
    const queue: ModelOrder[] = []
    for (let next = 0; ; next++) {
      for (const price of this.#printed) {
        const hit = this.pending.filter((p) => (p.side === 'buy' ? p.stop! <= price : p.stop! >= price))
        const distance = (p: ModelOrder) => Math.abs(price - p.stop!)
        queue.push(...hit.sort((a, b) => distance(b) - distance(a) || a.seq - b.seq))
        this.pending = this.pending.filter((p) => !hit.includes(p))
      }
      this.#printed = []
      const order = queue[next]
      if (!order) return
      order.seq = ++this.seq
      order.status = 'open'
      this.#sweep(order)
    }
  }

  cancel(uid: string, reason = 'user'): boolean {
    const order = this.orders.get(uid)!
    if (!this.resting.includes(order) && !this.pending.includes(order)) return false
    this.resting = this.resting.filter((r) => r !== order)
    this.pending = this.pending.filter((r) => r !== order)
    order.status = 'cancelled'
    order.cancelReason = reason
    return true
  }

  moveStop(uid: string, stop: number): 200 | 409 | 422 | 'unchanged' {
    const order = this.orders.get(uid)!
    if (!this.resting.includes(order) && !this.pending.includes(order)) return 409
    if (!this.pending.includes(order)) return 422
    if (order.stop === stop) return 'unchanged'
    order.stop = stop
    order.seq = ++this.seq
    order.since = this.fills.length
    return 200
  }

  expire(at: number): void {
    const due = [...this.resting, ...this.pending].filter((o) => o.expireAt !== null && o.expireAt <= at).sort((a, b) => a.seq - b.seq)
    for (const order of due) this.cancel(order.uid, 'expired')
  }

  /** docs/api.md, "Cancel on disconnect": a passed deadline cancels its tenant's open orders and pending stops, once. */
  fireDeadlines(at: number): void {
    for (const [tenant, deadline] of this.deadlines) {
      if (deadline > at) continue
      this.deadlines.delete(tenant)
      for (const order of [...this.resting, ...this.pending]) if (order.tenant === tenant) this.cancel(order.uid, 'deadline')
    }
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

const arm = (tenant: TestClient, seconds: number) =>
  server.request('POST', `${ORDERS}/cancel-after`, { token: tenant.token, body: { timeout_seconds: seconds } })

describe('matching with stops, gtd and the cancel-after deadline against a reference model', () => {
  it('answers, books and pending stops as the model; stops never trade before their trigger; holds add up at every step', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 15, maxLength: 30 }), async (ops) => {
        const rules = { price_precision: 1, quantity_precision: 1, min_order_quantity: '0.1', tick_size: '0.1' }
        const symbol = await createMarket(server.services.db, rules, { funded: false })
        await fundTenants(
          server.services.db,
          tenants.map((t) => t.tenantId),
          symbol.split('-'),
        )
        const model = new Model()
        const placed: string[] = []
        // A deadline a previous sequence left armed must not fire in this one.
        for (const tenant of tenants) expect((await arm(tenant, 0)).body).toEqual({ deadline: null })
        const currencies = symbol.split('-')
        const check = async () => {
          const token = tenants[0]!.token
          const book = (await server.request('GET', `/api/exchange/v1/symbols/${symbol}/book?depth=100`, { token })).body
          const levels = (side: any[]) => side.map((l) => ({ ...l, price: canon(l.price), quantity: canon(l.quantity) }))
          expect(levels(book.bids)).toEqual(model.levels('buy'))
          expect(levels(book.asks)).toEqual(model.levels('sell'))
          for (const [uid, order] of model.orders) {
            const stored = await server.services.db
              .selectFrom('orders')
              .select(['status', 'cancel_reason', 'filled_quantity'])
              .where('uid', '=', uid)
              .executeTakeFirstOrThrow()
            expect([uid, stored.status, stored.cancel_reason, canon(stored.filled_quantity)]).toEqual([
              uid,
              order.status,
              order.cancelReason,
              canon(text(order.filled)),
            ])
          }
          // Each tenant's holds in the market's currencies, as the API answers them, are what its open and pending orders hold.
          const held = await server.services.db
            .selectFrom('orders')
            .select(['tenant_id', 'hold_currency', 'hold'])
            .where('symbol', '=', symbol)
            .where('status', 'in', ['open', 'partially_filled', 'pending'])
            .execute()
          for (const tenant of tenants)
            for (const currency of currencies) {
              const account = (await server.request('GET', `/api/exchange/v1/accounts/${currency}`, { token: tenant.token })).body
              const orders = held
                .filter((o) => o.tenant_id === tenant.tenantId && o.hold_currency === currency)
                .reduce((sum, o) => add(sum, decimalFromStore(o.hold)), ZERO)
              expect([tenant.tenantId, currency, formatDecimal(decimalFromStore(account.hold))]).toEqual([tenant.tenantId, currency, formatDecimal(orders)])
            }
        }
        for (const step of ops) {
          if (step.kind === 'tick') {
            now += step.seconds * 1000
            // Every pass, the deadline's too, first cancels what expired (the background gtd sweep sees this clock).
            await server.services.matching.expireDue()
            await server.services.cancelDeadlines.sweep()
            model.expire(now)
            model.fireDeadlines(now)
          } else if (step.kind === 'deadline') {
            const res = await arm(tenants[step.tenant]!, step.seconds)
            expect([res.status, res.body]).toEqual([200, { deadline: formatTimestamp(timestampOf(now + step.seconds * 1000)) }])
            model.deadlines.set(step.tenant, now + step.seconds * 1000)
          } else if (step.kind === 'cancel' || step.kind === 'move_stop') {
            if (placed.length === 0) continue
            const uid = placed[step.pick % placed.length]!
            const token = tenants[model.orders.get(uid)!.tenant]!.token
            if (step.kind === 'cancel') {
              const res = await server.request('DELETE', `${ORDERS}/${uid}`, { token })
              expect(res.status).toBe(model.cancel(uid) ? 200 : 409)
            } else {
              const res = await server.request('PATCH', `${ORDERS}/${uid}`, { token, body: { stop_price: text(step.stop) } })
              const expected = model.moveStop(uid, step.stop)
              expect(res.status, JSON.stringify(res.body)).toBe(expected === 'unchanged' ? 200 : expected)
            }
          } else {
            const expireAt = step.kind !== 'market' && step.gtd !== null ? now + step.gtd * 1000 : null
            const body: Record<string, unknown> = { symbol, side: step.side, quantity: text(step.quantity) }
            if (step.kind === 'limit') Object.assign(body, { type: 'limit', price: text(step.price) })
            else if (step.kind === 'market') Object.assign(body, { type: 'market' })
            else if (step.price === null) Object.assign(body, { type: 'stop_market', stop_price: text(step.stop) })
            else Object.assign(body, { type: 'stop_limit', price: text(step.price), stop_price: text(step.stop) })
            if (step.kind === 'stop' && step.price === null && step.side === 'buy') continue
            if (expireAt !== null && body.type !== 'stop_market') Object.assign(body, { time_in_force: 'gtd', expire_at: new Date(expireAt).toISOString() })
            const res = await placeOrder(server, tenants[step.tenant]!.token, body)
            expect(res.status, JSON.stringify(res.body)).toBe(201)
            const order: ModelOrder = {
              uid: res.body.uid,
              tenant: step.tenant,
              side: step.side,
              price: step.kind === 'market' ? null : step.price,
              stop: step.kind === 'stop' ? step.stop : null,
              quantity: step.quantity,
              filled: 0,
              seq: 0,
              status: 'open',
              cancelReason: null,
              rests: body.type === 'limit' || body.type === 'stop_limit',
              expireAt: body.time_in_force === 'gtd' ? expireAt : null,
              since: 0,
            }
            model.place(order)
            placed.push(order.uid)
            expect([res.body.status, canon(res.body.filled_quantity)]).toEqual([order.status, canon(text(order.filled))])
          }
          await check()
        }
        await checkStored(symbol, model)
      }),
      { numRuns: 10 },
    )
  })
})

async function checkStored(symbol: string, model: Model): Promise<void> {
  const db = server.services.db
  const orders = await db.selectFrom('orders').selectAll().where('symbol', '=', symbol).execute()
  const trades = await db.selectFrom('trades').selectAll().where('symbol', '=', symbol).orderBy('sequence').execute()
  expect(trades.map((t) => [t.maker_order_uid, t.taker_order_uid, canon(t.price), canon(t.quantity)])).toEqual(
    model.fills.map((f) => [f.maker, f.taker, canon(text(f.price)), canon(text(f.quantity))]),
  )
  // A stop trades only after a trade at or beyond its stop price (buys at or above, sells at or
  // below) printed since that stop price was set (placed, or moved by an amend), in trade order.
  for (const order of orders.filter((o) => o.stop_price !== null)) {
    const first = trades.findIndex((t) => t.maker_order_uid === order.uid || t.taker_order_uid === order.uid)
    if (first === -1) continue
    const stop = Number(order.stop_price)
    const since = trades.slice(model.orders.get(order.uid)!.since, first)
    const reached = since.some((t) => (order.side === 'buy' ? Number(t.price) >= stop : Number(t.price) <= stop))
    expect(reached, `stop ${order.uid} traded before its trigger`).toBe(true)
  }
  for (const order of orders) if (order.status === 'filled' || order.status === 'cancelled') expect(Number(order.hold)).toBe(0)
  expect((await checkAccounts(db)).discrepancies).toEqual([])
}
