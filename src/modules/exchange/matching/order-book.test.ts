import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

import { add, compareDecimals, decimalFromStore, type DecimalValue, formatDecimal, isPositive, subtract } from '../../../core/decimal.ts'
import { type Fill, type IncomingOrder, type Level, type LevelChange, type MatchResult, OrderBook, type RestingOrder, type Side } from './order-book.ts'

const dec = decimalFromStore
const str = (value: DecimalValue) => formatDecimal(value)
const ZERO = dec('0')

/** Value-level views, so `1.50` and `1.5` compare equal and expectations stay readable. */
const fillView = (f: Fill) => ({
  maker: f.makerUid,
  makerTenant: f.makerTenantId,
  taker: f.takerUid,
  price: str(f.price),
  qty: str(f.quantity),
  makerLeft: str(f.makerRemaining),
})
const levelView = (l: Level) => `${str(l.price)} x${str(l.quantity)} (${l.orders})`
const changeView = (c: LevelChange) => `${c.side} ${str(c.price)} x${str(c.quantity)} (${c.orders})`
const restingView = (o: RestingOrder) => ({ uid: o.uid, tenantId: o.tenantId, side: o.side, price: str(o.price), remaining: str(o.remaining), seq: o.seq })

/** A book with a seq counter, so unit tests read as a sequence of orders. */
function harness() {
  const book = new OrderBook()
  let seq = 0n
  const limit = (uid: string, tenantId: string, side: Side, price: string, quantity: string): MatchResult =>
    book.match({ uid, tenantId, side, type: 'limit', price: dec(price), quantity: dec(quantity), seq: ++seq })
  const market = (uid: string, tenantId: string, side: Side, quantity: string): MatchResult =>
    book.match({ uid, tenantId, side, type: 'market', price: null, quantity: dec(quantity), seq: ++seq })
  const rest = (uid: string, tenantId: string, side: Side, price: string, remaining: string, at?: bigint) =>
    book.add({ uid, tenantId, side, price: dec(price), remaining: dec(remaining), seq: at ?? ++seq })
  const levels = (side: Side, depth?: number) => book.levels(side, depth ?? 100).map(levelView)
  return { book, limit, market, rest, levels }
}

describe('OrderBook matching', () => {
  it('crosses at the maker price', () => {
    const { book, limit, levels } = harness()
    expect(limit('s1', 'B', 'sell', '100', '10').rested).toBe(true)
    const r = limit('b1', 'A', 'buy', '101', '4')
    expect(r.fills.map(fillView)).toEqual([{ maker: 's1', makerTenant: 'B', taker: 'b1', price: '100', qty: '4', makerLeft: '6' }])
    expect(str(r.remaining)).toBe('0')
    expect(r.rested).toBe(false)
    expect(r.cancelReason).toBeNull()
    expect(levels('sell')).toEqual(['100 x6 (1)'])
    expect(levels('buy')).toEqual([])
    expect(book.size).toBe(1)
  })

  it('a sell crosses the highest bid at the bid price', () => {
    const { limit } = harness()
    limit('b1', 'A', 'buy', '99', '1')
    limit('b2', 'A', 'buy', '100', '1')
    const r = limit('s1', 'B', 'sell', '98.5', '1')
    expect(r.fills.map(fillView)).toEqual([{ maker: 'b2', makerTenant: 'A', taker: 's1', price: '100', qty: '1', makerLeft: '0' }])
  })

  it('rests the remainder of a partially filled limit order', () => {
    const { book, limit, levels } = harness()
    limit('s1', 'B', 'sell', '100', '3')
    const r = limit('b1', 'A', 'buy', '100', '5.5')
    expect(r.fills.map(fillView)).toEqual([{ maker: 's1', makerTenant: 'B', taker: 'b1', price: '100', qty: '3', makerLeft: '0' }])
    expect(str(r.remaining)).toBe('2.5')
    expect(r.rested).toBe(true)
    expect(r.cancelReason).toBeNull()
    expect(restingView(book.get('b1')!)).toEqual({ uid: 'b1', tenantId: 'A', side: 'buy', price: '100', remaining: '2.5', seq: 2n })
    expect(book.get('s1')).toBeUndefined()
    expect(levels('buy')).toEqual(['100 x2.5 (1)'])
    expect(levels('sell')).toEqual([])
  })

  it('walks several levels best price first and stops at the limit', () => {
    const { book, limit, levels } = harness()
    limit('s102', 'B', 'sell', '102', '1')
    limit('s100', 'B', 'sell', '100', '1')
    limit('s101', 'C', 'sell', '101', '2')
    const r = limit('b1', 'A', 'buy', '101', '5')
    expect(r.fills.map(fillView)).toEqual([
      { maker: 's100', makerTenant: 'B', taker: 'b1', price: '100', qty: '1', makerLeft: '0' },
      { maker: 's101', makerTenant: 'C', taker: 'b1', price: '101', qty: '2', makerLeft: '0' },
    ])
    expect(str(r.remaining)).toBe('2')
    expect(r.rested).toBe(true)
    expect(levels('sell')).toEqual(['102 x1 (1)'])
    expect(levels('buy')).toEqual(['101 x2 (1)'])
    expect(book.size).toBe(2)
  })

  it('fills first in first out within a level', () => {
    const { limit } = harness()
    limit('s1', 'B', 'sell', '100', '1')
    limit('s2', 'C', 'sell', '100', '1')
    limit('s3', 'B', 'sell', '100', '1')
    const r = limit('b1', 'A', 'buy', '100', '2.5')
    expect(r.fills.map((f) => [f.makerUid, str(f.quantity), str(f.makerRemaining)])).toEqual([
      ['s1', '1', '0'],
      ['s2', '1', '0'],
      ['s3', '0.5', '0.5'],
    ])
  })

  it('add() rebuilds time priority from seq whatever the insertion order', () => {
    const { book, rest, market } = harness()
    rest('s3', 'B', 'sell', '100', '1', 30n)
    rest('s1', 'C', 'sell', '100', '1', 10n)
    rest('s2', 'B', 'sell', '100', '1', 20n)
    expect(() => rest('s2', 'B', 'sell', '100', '1', 21n)).toThrow(/already/)
    const r = market('m', 'A', 'buy', '3')
    expect(r.fills.map((f) => f.makerUid)).toEqual(['s1', 's2', 's3'])
    expect(book.size).toBe(0)
  })

  it('a market order fills like an immediate-or-cancel order', () => {
    const { book, limit, market, levels } = harness()
    limit('s1', 'B', 'sell', '100', '1')
    limit('s2', 'C', 'sell', '105', '2')
    const filled = market('m1', 'A', 'buy', '1.5')
    expect(filled.fills.map(fillView)).toEqual([
      { maker: 's1', makerTenant: 'B', taker: 'm1', price: '100', qty: '1', makerLeft: '0' },
      { maker: 's2', makerTenant: 'C', taker: 'm1', price: '105', qty: '0.5', makerLeft: '1.5' },
    ])
    expect(filled).toMatchObject({ rested: false, cancelReason: null })
    expect(str(filled.remaining)).toBe('0')

    const partial = market('m2', 'A', 'buy', '10')
    expect(partial.fills.map(fillView)).toEqual([{ maker: 's2', makerTenant: 'C', taker: 'm2', price: '105', qty: '1.5', makerLeft: '0' }])
    expect(partial).toMatchObject({ rested: false, cancelReason: 'unfilled' })
    expect(str(partial.remaining)).toBe('8.5')
    expect(book.get('m2')).toBeUndefined()
    expect(levels('buy')).toEqual([])
    expect(levels('sell')).toEqual([])
    expect(book.size).toBe(0)
  })

  it('a market order on an empty side is cancelled unfilled', () => {
    const { book, limit, market } = harness()
    limit('b1', 'B', 'buy', '100', '1')
    const r = market('m1', 'A', 'buy', '2')
    expect(r.fills).toEqual([])
    expect(str(r.remaining)).toBe('2')
    expect(r).toMatchObject({ rested: false, cancelReason: 'unfilled', levelChanges: [] })
    expect(book.size).toBe(1)
  })

  it('rejects malformed input without touching the book', () => {
    const { book, limit } = harness()
    limit('s1', 'B', 'sell', '100', '1')
    const base: IncomingOrder = { uid: 'x', tenantId: 'A', side: 'buy', type: 'limit', price: dec('100'), quantity: dec('1'), seq: 99n }
    expect(() => book.match({ ...base, uid: 's1' })).toThrow(/already/)
    expect(() => book.match({ ...base, quantity: ZERO })).toThrow(RangeError)
    expect(() => book.match({ ...base, price: null })).toThrow(RangeError)
    expect(() => book.match({ ...base, type: 'market' })).toThrow(RangeError)
    expect(book.size).toBe(1)
    expect(str(book.get('s1')!.remaining)).toBe('1')
  })
})

describe('OrderBook self-trade prevention', () => {
  it('stops at once when the best resting order is the same tenant', () => {
    const { book, limit, levels } = harness()
    limit('s1', 'A', 'sell', '100', '1')
    limit('s2', 'B', 'sell', '100', '1')
    const r = limit('b1', 'A', 'buy', '100', '2')
    expect(r.fills).toEqual([])
    expect(str(r.remaining)).toBe('2')
    expect(r).toMatchObject({ rested: false, cancelReason: 'self_trade', levelChanges: [] })
    expect(restingView(book.get('s1')!)).toMatchObject({ remaining: '1' })
    expect(levels('sell')).toEqual(['100 x2 (2)'])
    expect(levels('buy')).toEqual([])
  })

  it('stops after filling another tenant first, without skipping ahead', () => {
    const { book, limit, levels } = harness()
    limit('sB1', 'B', 'sell', '99', '1')
    limit('sB2', 'B', 'sell', '100', '1')
    limit('sA', 'A', 'sell', '100', '1')
    limit('sB3', 'B', 'sell', '100', '1')
    limit('sC', 'C', 'sell', '101', '1')
    const r = limit('b1', 'A', 'buy', '101', '5')
    expect(r.fills.map((f) => [f.makerUid, str(f.price), str(f.quantity)])).toEqual([
      ['sB1', '99', '1'],
      ['sB2', '100', '1'],
    ])
    expect(str(r.remaining)).toBe('3')
    expect(r).toMatchObject({ rested: false, cancelReason: 'self_trade' })
    expect(book.get('b1')).toBeUndefined()
    expect(levels('buy')).toEqual([])
    expect(levels('sell')).toEqual(['100 x2 (2)', '101 x1 (1)'])
    expect(restingView(book.get('sA')!)).toMatchObject({ remaining: '1', seq: 3n })
  })

  it('applies to market orders too', () => {
    const { limit, market } = harness()
    limit('b1', 'B', 'buy', '100', '1')
    limit('b2', 'A', 'buy', '99', '1')
    const r = market('m1', 'A', 'sell', '3')
    expect(r.fills.map((f) => f.makerUid)).toEqual(['b1'])
    expect(r).toMatchObject({ rested: false, cancelReason: 'self_trade' })
    expect(str(r.remaining)).toBe('2')
  })

  it('ignores same-tenant orders that do not cross', () => {
    const { limit, levels } = harness()
    limit('sA', 'A', 'sell', '105', '1')
    limit('sB', 'B', 'sell', '100', '1')
    const r = limit('b1', 'A', 'buy', '101', '2')
    expect(r.fills.map((f) => f.makerUid)).toEqual(['sB'])
    expect(r).toMatchObject({ rested: true, cancelReason: null })
    expect(levels('buy')).toEqual(['101 x1 (1)'])
    expect(levels('sell')).toEqual(['105 x1 (1)'])
  })
})

describe('OrderBook cancel and levels', () => {
  it('cancels by uid and reports the level change', () => {
    const { book, limit, market, levels } = harness()
    limit('s1', 'B', 'sell', '100', '1')
    limit('s2', 'C', 'sell', '100', '2')
    limit('s3', 'B', 'sell', '100', '3')
    limit('s4', 'B', 'sell', '101', '4')
    const c = book.cancel('s2')!
    expect(restingView(c.order)).toEqual({ uid: 's2', tenantId: 'C', side: 'sell', price: '100', remaining: '2', seq: 2n })
    expect(changeView(c.levelChange)).toBe('sell 100 x4 (2)')
    expect(book.cancel('s2')).toBeUndefined()
    expect(book.cancel('nope')).toBeUndefined()
    expect(changeView(book.cancel('s4')!.levelChange)).toBe('sell 101 x0 (0)')
    expect(levels('sell')).toEqual(['100 x4 (2)'])
    expect(book.size).toBe(2)
    // The survivors keep their queue order.
    expect(market('m', 'A', 'buy', '4').fills.map((f) => f.makerUid)).toEqual(['s1', 's3'])
  })

  it('cancelling a level that is not the best keeps the others sorted', () => {
    const { book, limit, levels } = harness()
    for (const p of ['10', '11', '12', '13', '14']) limit(`b${p}`, 'A', 'buy', p, '1')
    book.cancel('b12')
    book.cancel('b10')
    expect(levels('buy')).toEqual(['14 x1 (1)', '13 x1 (1)', '11 x1 (1)'])
    limit('b12b', 'A', 'buy', '12', '2')
    expect(levels('buy')).toEqual(['14 x1 (1)', '13 x1 (1)', '12 x2 (1)', '11 x1 (1)'])
  })

  it('aggregates levels per price, bids high to low and asks low to high, up to depth', () => {
    const { book, limit, rest, levels } = harness()
    limit('b1', 'A', 'buy', '99', '1')
    limit('b2', 'B', 'buy', '98.5', '2')
    limit('b3', 'C', 'buy', '99', '0.25')
    limit('b4', 'A', 'buy', '97', '1')
    limit('s1', 'A', 'sell', '101', '1')
    limit('s2', 'B', 'sell', '100.5', '1.5')
    rest('s3', 'C', 'sell', '101.00', '2.000')
    expect(levels('buy')).toEqual(['99 x1.25 (2)', '98.5 x2 (1)', '97 x1 (1)'])
    expect(levels('sell')).toEqual(['100.5 x1.5 (1)', '101 x3 (2)'])
    expect(levels('buy', 2)).toEqual(['99 x1.25 (2)', '98.5 x2 (1)'])
    expect(levels('sell', 0)).toEqual([])
    expect(str(book.bestPrice('buy')!)).toBe('99')
    expect(str(book.bestPrice('sell')!)).toBe('100.5')
    expect(book.size).toBe(7)
  })

  it('reports every touched level once, with its final totals, in the order first touched', () => {
    const { limit } = harness()
    limit('s1', 'B', 'sell', '100', '1')
    limit('s2', 'C', 'sell', '100', '1')
    limit('s3', 'B', 'sell', '101', '3')
    limit('s4', 'C', 'sell', '103', '1')
    limit('b0', 'C', 'buy', '90', '1')
    const r = limit('b1', 'A', 'buy', '102', '6')
    expect(r.levelChanges.map(changeView)).toEqual(['sell 100 x0 (0)', 'sell 101 x0 (0)', 'buy 102 x1 (1)'])
    const r2 = limit('b2', 'A', 'buy', '102', '0.5')
    expect(r2.levelChanges.map(changeView)).toEqual(['buy 102 x1.5 (2)'])
    const r3 = limit('s5', 'B', 'sell', '90', '2')
    expect(r3.levelChanges.map(changeView)).toEqual(['buy 102 x0 (0)', 'buy 90 x0.5 (1)'])
  })

  it('stays exact when later orders carry more decimals than earlier ones', () => {
    const { book, limit, levels } = harness()
    limit('s1', 'B', 'sell', '100', '2')
    limit('s2', 'B', 'sell', '100.125', '1')
    const r = limit('b1', 'A', 'buy', '100.1250', '2.001')
    expect(r.fills.map((f) => [f.makerUid, str(f.price), str(f.quantity), str(f.makerRemaining)])).toEqual([
      ['s1', '100', '2', '0'],
      ['s2', '100.125', '0.001', '0.999'],
    ])
    expect(levels('sell')).toEqual(['100.125 x0.999 (1)'])
    expect(restingView(book.get('s2')!)).toMatchObject({ price: '100.125', remaining: '0.999' })
  })
})

describe('OrderBook time in force and amends', () => {
  it('rest: false cancels the remainder of a limit order unfilled instead of resting it (ioc)', () => {
    const { book, rest, levels } = harness()
    rest('s1', 'B', 'sell', '100', '2')
    const r = book.match({ uid: 'b1', tenantId: 'A', side: 'buy', type: 'limit', price: dec('101'), quantity: dec('3'), seq: 10n, rest: false })
    expect(r.fills.map((f) => str(f.quantity))).toEqual(['2'])
    expect([r.rested, r.cancelReason, str(r.remaining)]).toEqual([false, 'unfilled', '1'])
    expect(levels('buy')).toEqual([])
  })

  it('canFill says whether an order would fill entirely, within its price and before its own tenant', () => {
    const { book, rest } = harness()
    rest('s1', 'B', 'sell', '100', '1')
    rest('s2', 'C', 'sell', '101', '2')
    rest('s3', 'A', 'sell', '102', '5')
    rest('s4', 'B', 'sell', '103', '5')
    const can = (price: string | null, quantity: string, tenantId = 'A') =>
      book.canFill({ side: 'buy', tenantId, price: price === null ? null : dec(price), quantity: dec(quantity) })
    expect(can('101', '3')).toBe(true)
    expect(can('101', '3.01')).toBe(false)
    expect(can('100.5', '2')).toBe(false)
    // A's own ask at 102 stops it, however much rests beyond.
    expect(can('103', '4')).toBe(false)
    expect(can('103', '4', 'D')).toBe(true)
    expect(can(null, '13', 'D')).toBe(true)
    expect(can(null, '13.5', 'D')).toBe(false)
    expect(book.size).toBe(4)
  })

  it('reduce lowers a remainder in place, keeping time priority, and refuses to add', () => {
    const { book, rest, limit, levels } = harness()
    rest('s1', 'B', 'sell', '100', '3')
    rest('s2', 'C', 'sell', '100', '3')
    expect(changeView({ ...book.reduce('s1', dec('1')) })).toBe('sell 100 x4 (2)')
    expect(() => book.reduce('s1', dec('2'))).toThrow(RangeError)
    expect(() => book.reduce('nope', dec('1'))).toThrow()
    expect(limit('b1', 'A', 'buy', '100', '1').fills.map((f) => f.makerUid)).toEqual(['s1'])
    expect(levels('sell')).toEqual(['100 x3 (1)'])
  })
})

/**
 * The reference model: a flat array of resting orders, re-filtered and re-sorted naively for every
 * match, with arithmetic straight from decimal.ts.
 */
type ModelOrder = RestingOrder

interface ModelFill {
  makerUid: string
  makerTenantId: string
  takerUid: string
  price: DecimalValue
  quantity: DecimalValue
  makerRemaining: DecimalValue
}

class Model {
  resting: ModelOrder[] = []

  match(o: IncomingOrder): { fills: ModelFill[]; remaining: DecimalValue; rested: boolean; cancelReason: MatchResult['cancelReason'] } {
    let remaining = o.quantity
    const fills: ModelFill[] = []
    let cancelReason: MatchResult['cancelReason'] = null
    let rested = false
    while (isPositive(remaining)) {
      const crossing = this.resting.filter(
        (r) => r.side !== o.side && (o.price === null || (o.side === 'buy' ? compareDecimals(r.price, o.price) <= 0 : compareDecimals(r.price, o.price) >= 0)),
      )
      crossing.sort((a, b) => (o.side === 'buy' ? compareDecimals(a.price, b.price) : compareDecimals(b.price, a.price)) || (a.seq < b.seq ? -1 : 1))
      const head = crossing[0]
      if (!head) break
      if (head.tenantId === o.tenantId) {
        cancelReason = 'self_trade'
        break
      }
      const quantity = compareDecimals(remaining, head.remaining) <= 0 ? remaining : head.remaining
      remaining = subtract(remaining, quantity)
      head.remaining = subtract(head.remaining, quantity)
      fills.push({ makerUid: head.uid, makerTenantId: head.tenantId, takerUid: o.uid, price: head.price, quantity, makerRemaining: head.remaining })
      if (!isPositive(head.remaining)) this.resting = this.resting.filter((r) => r !== head)
    }
    if (isPositive(remaining) && cancelReason === null) {
      if (o.price === null) cancelReason = 'unfilled'
      else {
        this.resting.push({ uid: o.uid, tenantId: o.tenantId, side: o.side, price: o.price, remaining, seq: o.seq })
        rested = true
      }
    }
    return { fills, remaining, rested, cancelReason }
  }

  cancel(uid: string): ModelOrder | undefined {
    const found = this.resting.find((r) => r.uid === uid)
    this.resting = this.resting.filter((r) => r.uid !== uid)
    return found
  }

  levels(side: Side): string[] {
    const byPrice = new Map<string, { price: DecimalValue; quantity: DecimalValue; orders: number }>()
    for (const r of this.resting.filter((x) => x.side === side)) {
      const key = str(r.price)
      const level = byPrice.get(key) ?? { price: r.price, quantity: ZERO, orders: 0 }
      byPrice.set(key, { price: level.price, quantity: add(level.quantity, r.remaining), orders: level.orders + 1 })
    }
    return [...byPrice.values()]
      .sort((a, b) => (side === 'buy' ? compareDecimals(b.price, a.price) : compareDecimals(a.price, b.price)))
      .map((l) => levelView(l))
  }
}

const sortLevels = (side: Side, levels: Map<string, { price: DecimalValue; text: string }>) =>
  [...levels.values()].sort((a, b) => (side === 'buy' ? compareDecimals(b.price, a.price) : compareDecimals(a.price, b.price))).map((l) => l.text)

/** Applies level changes to a snapshot of both sides, as a market-data consumer would. */
function applyChanges(before: Record<Side, Level[]>, changes: LevelChange[]): Record<Side, string[]> {
  const sides: Record<Side, Map<string, { price: DecimalValue; text: string }>> = { buy: new Map(), sell: new Map() }
  for (const side of ['buy', 'sell'] as const) for (const l of before[side]) sides[side].set(str(l.price), { price: l.price, text: levelView(l) })
  const seen = new Set<string>()
  for (const c of changes) {
    const key = `${c.side} ${str(c.price)}`
    expect(seen.has(key), `level ${key} reported twice`).toBe(false)
    seen.add(key)
    expect(c.orders === 0).toBe(!isPositive(c.quantity))
    if (c.orders === 0) sides[c.side].delete(str(c.price))
    else sides[c.side].set(str(c.price), { price: c.price, text: levelView(c) })
  }
  return { buy: sortLevels('buy', sides.buy), sell: sortLevels('sell', sides.sell) }
}

const PRICES = ['1', '1.5', '2', '2.25', '2.5', '3', '3.125', '4'] as const
const QUANTITIES = ['0.5', '1', '2', '3', '1.25', '0.1', '5', '0.05', '10'] as const

type Op = { kind: 'order'; tenant: number; side: Side; market: boolean; price: string; quantity: string } | { kind: 'cancel'; pick: number }

const orderOp: fc.Arbitrary<Extract<Op, { kind: 'order' }>> = fc.record({
  kind: fc.constant('order' as const),
  tenant: fc.nat(3),
  side: fc.constantFrom<Side>('buy', 'sell'),
  market: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  price: fc.constantFrom(...PRICES),
  quantity: fc.constantFrom(...QUANTITIES),
})
const cancelOp: fc.Arbitrary<Op> = fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() })
const scenario = fc.record({
  tenants: fc.integer({ min: 2, max: 4 }),
  ops: fc.array(fc.oneof({ arbitrary: orderOp, weight: 4 }, { arbitrary: cancelOp, weight: 1 }), { maxLength: 60 }),
})

interface Accepted {
  order: IncomingOrder
  filled: DecimalValue
}

/** Runs one scenario through engine and model, checking every invariant after every step. */
function runScenario({ tenants, ops }: { tenants: number; ops: Op[] }): void {
  const book = new OrderBook()
  const model = new Model()
  const accepted = new Map<string, Accepted>()
  /** Last maker seq filled per (maker side, price): fills at one level must follow acceptance order. */
  const lastSeqAtLevel = new Map<string, bigint>()
  let seq = 0n
  const snapshot = (): Record<Side, Level[]> => ({ buy: book.levels('buy', Infinity), sell: book.levels('sell', Infinity) })

  const checkBook = () => {
    expect(book.levels('buy', Infinity).map(levelView)).toEqual(model.levels('buy'))
    expect(book.levels('sell', Infinity).map(levelView)).toEqual(model.levels('sell'))
    expect(book.size).toBe(model.resting.length)
    for (const r of model.resting) {
      const got = book.get(r.uid)
      expect(got && restingView(got)).toEqual(restingView(r))
      // Σ fills = quantity − remaining, for every order still resting.
      const a = accepted.get(r.uid)!
      expect(str(add(a.filled, r.remaining))).toBe(str(a.order.quantity))
    }
  }

  for (const op of ops) {
    const before = snapshot()
    if (op.kind === 'cancel') {
      const uids = model.resting.map((r) => r.uid)
      const uid = op.pick % (uids.length + 1) === uids.length ? 'missing' : uids[op.pick % (uids.length + 1)]!
      const got = book.cancel(uid)
      const expected = model.cancel(uid)
      expect(got && restingView(got.order)).toEqual(expected && restingView(expected))
      const after = applyChanges(before, got ? [got.levelChange] : [])
      expect(after.buy).toEqual(model.levels('buy'))
      expect(after.sell).toEqual(model.levels('sell'))
      checkBook()
      continue
    }

    seq++
    const order: IncomingOrder = {
      uid: `o${seq}`,
      tenantId: `T${op.tenant % tenants}`,
      side: op.side,
      type: op.market ? 'market' : 'limit',
      price: op.market ? null : dec(op.price),
      quantity: dec(op.quantity),
      seq,
    }
    accepted.set(order.uid, { order, filled: ZERO })
    const got = book.match(order)
    const expected = model.match(order)

    expect(got.fills.map(fillView)).toEqual(expected.fills.map(fillView))
    expect(str(got.remaining)).toBe(str(expected.remaining))
    expect(got.rested).toBe(expected.rested)
    expect(got.cancelReason).toBe(expected.cancelReason)

    let takerFilled = ZERO
    for (const fill of got.fills) {
      const maker = accepted.get(fill.makerUid)!
      expect(fill.makerTenantId).toBe(maker.order.tenantId)
      expect(fill.makerTenantId).not.toBe(order.tenantId)
      expect(isPositive(fill.quantity)).toBe(true)
      expect(str(fill.price)).toBe(str(maker.order.price!))
      if (order.price !== null) {
        const c = compareDecimals(fill.price, order.price)
        expect(order.side === 'buy' ? c <= 0 : c >= 0, 'trade price outside the taker limit').toBe(true)
      }
      const levelKey = `${maker.order.side} ${str(fill.price)}`
      const last = lastSeqAtLevel.get(levelKey)
      expect(last === undefined || last <= maker.order.seq, `fill at ${levelKey} out of seq order`).toBe(true)
      lastSeqAtLevel.set(levelKey, maker.order.seq)
      maker.filled = add(maker.filled, fill.quantity)
      expect(compareDecimals(maker.filled, maker.order.quantity)).toBeLessThanOrEqual(0)
      expect(str(fill.makerRemaining)).toBe(str(subtract(maker.order.quantity, maker.filled)))
      takerFilled = add(takerFilled, fill.quantity)
    }
    accepted.get(order.uid)!.filled = takerFilled
    expect(str(add(takerFilled, got.remaining))).toBe(str(order.quantity))

    const after = applyChanges(before, got.levelChanges)
    expect(after.buy).toEqual(model.levels('buy'))
    expect(after.sell).toEqual(model.levels('sell'))
    checkBook()
  }

  // A book rebuilt with add(), in reverse acceptance order, holds the same queues: sweeping both
  // sides with an outside tenant's market orders yields identical fills.
  const rebuilt = new OrderBook()
  for (const r of [...model.resting].reverse()) rebuilt.add({ ...r })
  expect(rebuilt.levels('buy', Infinity).map(levelView)).toEqual(model.levels('buy'))
  expect(rebuilt.levels('sell', Infinity).map(levelView)).toEqual(model.levels('sell'))
  for (const side of ['buy', 'sell'] as const) {
    const sweep: IncomingOrder = { uid: `sweep-${side}`, tenantId: 'outsider', side, type: 'market', price: null, quantity: dec('1000000'), seq: ++seq }
    expect(rebuilt.match(sweep).fills.map(fillView)).toEqual(book.match(sweep).fills.map(fillView))
  }
  expect(book.size).toBe(0)
  expect(rebuilt.size).toBe(0)
}

describe('OrderBook against a reference model', () => {
  it('matches the model exactly and keeps every invariant after every step', () => {
    fc.assert(fc.property(scenario, runScenario), { numRuns: 500 })
  })

  it('holds with two tenants in a narrow price range, where self-trades are frequent', () => {
    const narrow = fc.record({
      tenants: fc.constant(2),
      ops: fc.array(
        fc.oneof(
          { arbitrary: fc.tuple(orderOp, fc.constantFrom('2', '2.5')).map(([op, price]) => ({ ...op, price })), weight: 5 },
          { arbitrary: cancelOp, weight: 1 },
        ),
        { maxLength: 60 },
      ),
    })
    fc.assert(fc.property(narrow, runScenario), { numRuns: 200 })
  })
})
