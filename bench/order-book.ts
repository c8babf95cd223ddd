import type { DecimalValue } from '../src/core/decimal.ts'
import { type IncomingOrder, OrderBook, type Side } from '../src/modules/exchange/matching/order-book.ts'

/**
 * Micro-benchmark of the matching engine alone: a book of resting orders from two tenants (A bids,
 * B asks), then crossing limit orders from alternating tenants, each of which trades. Makers used
 * up are replaced between timed batches, outside the clock, so the book keeps its shape.
 * Run: npx tsx bench/order-book.ts [orders] [resting]
 */
const ORDERS = Number(process.argv[2] ?? 200_000)
const RESTING = Number(process.argv[3] ?? 10_000)
const LEVELS_PER_SIDE = 100
const BATCH = 1_000

/** Deterministic, so runs compare like for like. */
function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const random = rng(42)
const cents = (units: number): DecimalValue => ({ coefficient: BigInt(units), scale: 2 })
const lots = (units: number): DecimalValue => ({ coefficient: BigInt(units), scale: 3 })
/** Bids at 99.99 and below, asks at 100.01 and above, one cent apart. */
const makerPrice = (side: Side) => cents(side === 'buy' ? 9999 - Math.floor(random() * LEVELS_PER_SIDE) : 10001 + Math.floor(random() * LEVELS_PER_SIDE))
const makerQuantity = () => lots(1000 + Math.floor(random() * 1000))

let seq = 0n
let uid = 0
function restMaker(book: OrderBook, side: Side): void {
  book.add({ uid: `m${++uid}`, tenantId: side === 'buy' ? 'A' : 'B', side, price: makerPrice(side), remaining: makerQuantity(), seq: ++seq })
}

function prefill(book: OrderBook, count: number): void {
  for (let i = 0; i < count; i++) restMaker(book, i % 2 === 0 ? 'buy' : 'sell')
}

/**
 * A buys from B's asks, B sells to A's bids. Limits reach across the whole band and each taker is
 * smaller than the side's liquidity, so every order trades and none rests.
 */
function incoming(count: number): IncomingOrder[] {
  const orders: IncomingOrder[] = []
  for (let i = 0; i < count; i++) {
    const buy = i % 2 === 0
    orders.push({
      uid: `t${++uid}`,
      tenantId: buy ? 'A' : 'B',
      side: buy ? 'buy' : 'sell',
      type: 'limit',
      price: cents(buy ? 10001 + LEVELS_PER_SIDE : 9999 - LEVELS_PER_SIDE),
      quantity: lots(1000 + Math.floor(random() * 2000)),
      seq: 0n,
    })
  }
  return orders
}

function runMatching(book: OrderBook, orders: IncomingOrder[]): { ns: bigint; fills: number; idle: number } {
  let ns = 0n
  let fills = 0
  let idle = 0
  for (let start = 0; start < orders.length; start += BATCH) {
    const batch = orders.slice(start, start + BATCH)
    for (const order of batch) order.seq = ++seq
    const results = new Array<number>(batch.length)
    const exhausted: Side[] = []
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < batch.length; i++) {
      const result = book.match(batch[i]!)
      results[i] = result.fills.length
      for (const fill of result.fills) if (fill.makerRemaining.coefficient === 0n) exhausted.push(batch[i]!.side === 'buy' ? 'sell' : 'buy')
    }
    ns += process.hrtime.bigint() - t0
    for (const n of results) {
      fills += n
      if (n === 0) idle++
    }
    for (const side of exhausted) restMaker(book, side)
  }
  return { ns, fills, idle }
}

function runCancels(count: number): { addNs: bigint; cancelNs: bigint; levels: number } {
  const book = new OrderBook()
  const t0 = process.hrtime.bigint()
  prefill(book, count)
  const addNs = process.hrtime.bigint() - t0
  const levels = book.levels('buy', Infinity).length + book.levels('sell', Infinity).length
  const uids: string[] = []
  for (let i = uid - count + 1; i <= uid; i++) uids.push(`m${i}`)
  for (let i = uids.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[uids[i], uids[j]] = [uids[j]!, uids[i]!]
  }
  const t1 = process.hrtime.bigint()
  for (const id of uids) if (!book.cancel(id)) throw new Error(`cancel missed ${id}`)
  const cancelNs = process.hrtime.bigint() - t1
  if (book.size !== 0) throw new Error('book not empty after cancelling everything')
  return { addNs, cancelNs, levels }
}

const perSecond = (count: number, ns: bigint) => Math.round((count * 1e9) / Number(ns)).toLocaleString('en-US')

// Warm-up on a throwaway book, so the timed run measures optimised code.
const warm = new OrderBook()
prefill(warm, RESTING)
runMatching(warm, incoming(20_000))
runCancels(20_000)

const book = new OrderBook()
prefill(book, RESTING)
const levelsBefore = book.levels('buy', Infinity).length + book.levels('sell', Infinity).length
const { ns, fills, idle } = runMatching(book, incoming(ORDERS))
const cancels = runCancels(RESTING * 10)

const resting = `${RESTING.toLocaleString('en-US')} resting orders over ${levelsBefore} levels`
console.log(`book: ${resting}, two tenants; ${book.size.toLocaleString('en-US')} resting at the end`)
console.log(`matched ${ORDERS.toLocaleString('en-US')} crossing limit orders (${idle} without a fill) in ${(Number(ns) / 1e6).toFixed(1)} ms`)
console.log(`  orders/s: ${perSecond(ORDERS, ns)}`)
console.log(`  fills/s:  ${perSecond(fills, ns)} (${(fills / ORDERS).toFixed(2)} fills per order)`)
console.log(`cancel: ${(RESTING * 10).toLocaleString('en-US')} resting orders over ${cancels.levels} levels, cancelled in random order`)
console.log(`  adds/s:    ${perSecond(RESTING * 10, cancels.addNs)}`)
console.log(`  cancels/s: ${perSecond(RESTING * 10, cancels.cancelNs)}`)
