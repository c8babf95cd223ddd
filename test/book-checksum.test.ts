import { crc32 } from 'node:zlib'

import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type DecimalValue, formatDecimalAtLeast, parseDecimal } from '../src/core/decimal.ts'
import { capturedSideText } from '../src/modules/exchange/market/book-checksum.ts'
import { type LevelChange, OrderBook } from '../src/modules/exchange/matching/order-book.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { onPostgres } from './helpers/database.ts'
import { openSse } from './helpers/event-stream.ts'
import { fundTenants } from './helpers/funding.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDERS, placeOrder } from './helpers/orders.ts'
import { type ServerProcess, startServerProcess } from './helpers/process.ts'
import { startTestServer, TEST_BASE_URL, type TestServer } from './helpers/server.ts'

/**
 * Book integrity (docs/api.md, "Book integrity"): the snapshot and every `book` event carry the
 * CRC-32 of the best 10 asks then the best 10 bids. The expected checksums here are computed from
 * the levels a client holds, with zlib's crc32 on text built in this file, never with the
 * service's own functions.
 */

let server: TestServer
let tenants: TestClient[]

beforeAll(async () => {
  server = await startTestServer()
  tenants = await Promise.all([createTestClient(server), createTestClient(server), createTestClient(server)])
})
afterAll(async () => {
  await server?.close()
})

type Side = 'buy' | 'sell'
interface Level {
  price: string
  quantity: string
  orders: number
}

const book = (symbol: string, query = '', token = tenants[0]!.token) => server.request('GET', `/api/exchange/v1/symbols/${symbol}/book${query}`, { token })
const limit = (symbol: string, side: Side, quantity: string, price: string) => ({ symbol, side, type: 'limit', quantity, price })

/** What a client computes: the best 10 of each side as `price:quantity`, asks then bids. */
const checksumOf = (asks: readonly Level[], bids: readonly Level[]) => {
  const side = (levels: readonly Level[]) =>
    levels
      .slice(0, 10)
      .map((l) => `${l.price}:${l.quantity}`)
      .join(',')
  return crc32(`${side(asks)}|${side(bids)}`)
}

/** A client's copy of a book: the snapshot's levels, then each `book` event applied. */
class LocalBook {
  readonly sides: Record<Side, Map<string, Level>> = { buy: new Map(), sell: new Map() }
  constructor(snapshot: { bids: Level[]; asks: Level[] }) {
    for (const l of snapshot.bids) this.sides.buy.set(l.price, l)
    for (const l of snapshot.asks) this.sides.sell.set(l.price, l)
  }
  apply(change: { side: Side; price: string; quantity: string; orders: number }): void {
    if (change.quantity === '0') this.sides[change.side].delete(change.price)
    else this.sides[change.side].set(change.price, { price: change.price, quantity: change.quantity, orders: change.orders })
  }
  levels(side: Side): Level[] {
    const sign = side === 'buy' ? -1 : 1
    return [...this.sides[side].values()].sort((a, b) => sign * (Number(a.price) - Number(b.price)))
  }
  get checksum(): number {
    return checksumOf(this.levels('sell'), this.levels('buy'))
  }
}

/** Every market event of `symbol` after `after`, through the JSON face of its stream. */
async function eventsAfter(symbol: string, after: number): Promise<any[]> {
  const events: any[] = []
  for (;;) {
    const res = await server.request('GET', `/api/exchange/v1/symbols/${symbol}/events?after=${after}&limit=100`, { token: tenants[0]!.token })
    expect(res.status).toBe(200)
    events.push(...res.body.items)
    if (res.body.items.length < 100) return events
    after = res.body.items.at(-1).sequence
  }
}

describe('the book snapshot', () => {
  it('carries the checksum of the best 10 asks then the best 10 bids, whatever the depth', async () => {
    const symbol = await createMarket(server.services.db)
    const [alice, bob] = tenants as [TestClient, TestClient]
    const empty = await book(symbol)
    // The empty book's text is `|`.
    expect(empty.body).toEqual({ symbol, sequence: 0, checksum: 2343686810, bids: [], asks: [] })
    await placeOrder(server, alice.token, limit(symbol, 'sell', '3', '10.00'))
    await placeOrder(server, alice.token, limit(symbol, 'sell', '1', '10.50'))
    await placeOrder(server, alice.token, limit(symbol, 'sell', '0.5', '10.5'))
    await placeOrder(server, bob.token, limit(symbol, 'buy', '1', '9.00'))
    await placeOrder(server, bob.token, limit(symbol, 'buy', '2.5', '9.25'))
    const res = await book(symbol)
    expect(res.status).toBe(200)
    expect(crc32('10.00:3.00,10.50:1.50|9.25:2.50,9.00:1.00')).toBe(3192223500)
    expect(res.body).toEqual({
      symbol,
      sequence: res.body.sequence,
      checksum: 3192223500,
      bids: [
        { price: '9.25', quantity: '2.50', orders: 1 },
        { price: '9.00', quantity: '1.00', orders: 1 },
      ],
      asks: [
        { price: '10.00', quantity: '3.00', orders: 1 },
        { price: '10.50', quantity: '1.50', orders: 2 },
      ],
    })
    // A shallower snapshot still checks the best 10 levels of each side.
    expect((await book(symbol, '?depth=1')).body).toEqual({
      symbol,
      sequence: res.body.sequence,
      checksum: 3192223500,
      bids: [{ price: '9.25', quantity: '2.50', orders: 1 }],
      asks: [{ price: '10.00', quantity: '3.00', orders: 1 }],
    })
  })

  it('covers only the best 10 levels of each side', async () => {
    const symbol = await createMarket(server.services.db)
    for (let i = 0; i < 12; i++) {
      await placeOrder(server, tenants[0]!.token, limit(symbol, 'sell', '1', `${20 + i}.00`))
      await placeOrder(server, tenants[1]!.token, limit(symbol, 'buy', '1', `${10 - i / 2}`))
    }
    const full = (await book(symbol, '?depth=12')).body
    expect([full.asks.length, full.bids.length]).toEqual([12, 12])
    expect(full.checksum).toBe(checksumOf(full.asks, full.bids))
    expect(full.checksum).not.toBe(
      crc32(`${full.asks.map((l: Level) => `${l.price}:${l.quantity}`).join(',')}|${full.bids.map((l: Level) => `${l.price}:${l.quantity}`).join(',')}`),
    )
    expect((await book(symbol, '?depth=3')).body.checksum).toBe(full.checksum)
    // A change beyond the 10th level changes the book, not its checksum.
    await placeOrder(server, tenants[0]!.token, limit(symbol, 'sell', '1', '40.00'))
    const deeper = (await book(symbol, '?depth=20')).body
    expect(deeper.asks).toHaveLength(13)
    expect(deeper.checksum).toBe(full.checksum)
  })
})

describe('GET …/book?group=<step>', () => {
  it('merges bids down and asks up to the step, summing exactly, and checksums the merged levels', async () => {
    const symbol = await createMarket(server.services.db)
    const [alice, bob] = tenants as [TestClient, TestClient]
    for (const [quantity, price] of [
      ['0.01', '10.00'],
      ['0.02', '10.01'],
      ['0.03', '10.99'],
      ['1', '11.00'],
      ['0.5', '12.30'],
    ])
      await placeOrder(server, alice.token, limit(symbol, 'sell', quantity!, price!))
    for (const [quantity, price] of [
      ['0.07', '9.99'],
      ['0.11', '9.01'],
      ['2', '9.00'],
      ['0.25', '8.50'],
    ])
      await placeOrder(server, bob.token, limit(symbol, 'buy', quantity!, price!))
    const res = await book(symbol, '?group=1')
    expect(res.status).toBe(200)
    const grouped = {
      bids: [
        { price: '9.00', quantity: '2.18', orders: 3 },
        { price: '8.00', quantity: '0.25', orders: 1 },
      ],
      asks: [
        { price: '10.00', quantity: '0.01', orders: 1 },
        { price: '11.00', quantity: '1.05', orders: 3 },
        { price: '13.00', quantity: '0.50', orders: 1 },
      ],
    }
    expect(crc32('10.00:0.01,11.00:1.05,13.00:0.50|9.00:2.18,8.00:0.25')).toBe(1501212135)
    expect(res.body).toEqual({ symbol, sequence: res.body.sequence, checksum: 1501212135, ...grouped })
    // The step's own spelling does not matter; depth counts merged levels.
    expect((await book(symbol, '?group=1.000&depth=1')).body).toEqual({
      symbol,
      sequence: res.body.sequence,
      checksum: 1501212135,
      bids: grouped.bids.slice(0, 1),
      asks: grouped.asks.slice(0, 1),
    })
    // A step of one tick is the book itself.
    const plain = (await book(symbol)).body
    expect((await book(symbol, '?group=0.01')).body).toEqual(plain)
    expect(plain.checksum).not.toBe(1501212135)
    const half = (await book(symbol, '?group=0.5')).body
    expect(half.bids.map((l: Level) => l.price)).toEqual(['9.50', '9.00', '8.50'])
    expect(half.asks.map((l: Level) => [l.price, l.quantity])).toEqual([
      ['10.00', '0.01'],
      ['10.50', '0.02'],
      ['11.00', '1.03'],
      ['12.50', '0.50'],
    ])
    expect(half.checksum).toBe(checksumOf(half.asks, half.bids))
  })

  it('refuses a step that is not a positive multiple of the tick size, as other query errors', async () => {
    const symbol = await createMarket(server.services.db, { tick_size: '0.05' })
    const cases: [string, object][] = [
      ['0', { type: 'value_error.number.not_gt', loc: ['query', 'group'], msg: 'ensure this value is greater than 0', input: '0', ctx: { limit_value: '0' } }],
      [
        '-0.05',
        { type: 'value_error.number.not_gt', loc: ['query', 'group'], msg: 'ensure this value is greater than 0', input: '-0.05', ctx: { limit_value: '0' } },
      ],
      ['abc', { type: 'type_error.decimal', loc: ['query', 'group'], msg: 'value is not a valid decimal', input: 'abc' }],
      [
        '0.01',
        {
          type: 'value_error.number.not_multiple',
          loc: ['query', 'group'],
          msg: 'ensure this value is a multiple of 0.05',
          input: '0.01',
          ctx: { multiple_of: '0.05' },
        },
      ],
      [
        '0.125',
        {
          type: 'value_error.number.not_multiple',
          loc: ['query', 'group'],
          msg: 'ensure this value is a multiple of 0.05',
          input: '0.125',
          ctx: { multiple_of: '0.05' },
        },
      ],
    ]
    for (const [group, issue] of cases) {
      const res = await book(symbol, `?group=${group}`)
      expect([res.status, res.body], group).toEqual([422, { detail: [issue] }])
    }
    expect((await book(symbol, '?group=0.15')).status).toBe(200)
    expect((await book('NOPE-NADA', '?group=1')).status).toBe(404)
  })
})

describe('GraphQL', () => {
  const ORDER_BOOK = `query($symbol: String!, $depth: Int, $group: Decimal) {
    orderBook(symbol: $symbol, depth: $depth, group: $group) { symbol sequence checksum bids { price quantity orders } asks { price quantity orders } }
  }`
  const SYMBOL_BOOK = `query($symbol: String!, $group: Decimal) {
    symbol(symbol: $symbol) { orderBook(group: $group) { symbol sequence checksum bids { price quantity orders } asks { price quantity orders } } }
  }`
  const asRest = (gql: any) => ({ ...gql, sequence: Number(gql.sequence), checksum: Number(gql.checksum) })

  it('answers orderBook and Symbol.orderBook with the same checksum and groups, and the same refusals', async () => {
    const symbol = await createMarket(server.services.db)
    await placeOrder(server, tenants[0]!.token, limit(symbol, 'sell', '1.5', '10.25'))
    await placeOrder(server, tenants[0]!.token, limit(symbol, 'sell', '1', '10.75'))
    await placeOrder(server, tenants[1]!.token, limit(symbol, 'buy', '2', '9.75'))
    const token = tenants[0]!.token
    for (const group of [undefined, '0.5', '1']) {
      const rest = (await book(symbol, group ? `?group=${group}` : '')).body
      const top = await server.graphql<any, any>(ORDER_BOOK, { symbol, group }, { token })
      expect(top.errors).toBeUndefined()
      expect(typeof top.data.orderBook.checksum).toBe('string')
      expect(asRest(top.data.orderBook)).toEqual(rest)
      const nested = await server.graphql<any, any>(SYMBOL_BOOK, { symbol, group }, { token })
      expect(asRest(nested.data.symbol.orderBook)).toEqual(rest)
    }
    for (const group of ['0', '0.001']) {
      const rest = await book(symbol, `?group=${group}`)
      for (const gql of [
        await server.graphql<any, any>(ORDER_BOOK, { symbol, group }, { token }),
        await server.graphql<any, any>(SYMBOL_BOOK, { symbol, group }, { token }),
      ]) {
        expect(gql.errors![0]!.extensions.code).toBe('BAD_USER_INPUT')
        expect(gql.errors![0]!.extensions.detail).toEqual(rest.body.detail)
      }
    }
  })
})

describe('book events', () => {
  it('carry the checksum of the book they leave, on every face', async () => {
    const symbol = await createMarket(server.services.db)
    const [alice, bob] = tenants as [TestClient, TestClient]
    await placeOrder(server, alice.token, limit(symbol, 'sell', '1', '10.00'))
    await placeOrder(server, alice.token, limit(symbol, 'sell', '2', '10.50'))
    // One sweep takes both asks and rests its remainder: three level changes in one pass.
    await placeOrder(server, bob.token, limit(symbol, 'buy', '4', '11.00'))
    const events = (await eventsAfter(symbol, 0)).filter((e) => e.type === 'book')
    expect(events.map((e) => e.book)).toEqual([
      { side: 'sell', price: '10.00', quantity: '1.00', orders: 1, checksum: crc32('10.00:1.00|') },
      { side: 'sell', price: '10.50', quantity: '2.00', orders: 1, checksum: crc32('10.00:1.00,10.50:2.00|') },
      { side: 'sell', price: '10.00', quantity: '0', orders: 0, checksum: crc32('10.50:2.00|') },
      { side: 'sell', price: '10.50', quantity: '0', orders: 0, checksum: crc32('|') },
      { side: 'buy', price: '11.00', quantity: '1.00', orders: 1, checksum: crc32('|11.00:1.00') },
    ])
    const snapshot = (await book(symbol)).body
    expect(snapshot.checksum).toBe(events.at(-1).book.checksum)
    // SSE and GraphQL's subscription carry the same events (GraphQL: the checksum as text).
    const all = await eventsAfter(symbol, 0)
    const sse = await openSse(`${server.url}/api/exchange/v1/symbols/${symbol}/events?after=0`, { headers: { authorization: `Bearer ${alice.token}` } })
    const gql = await openSse(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'subscription($symbol: String!) { marketEvents(symbol: $symbol, after: "0") { sequence type book { side price quantity orders checksum } } }',
        variables: { symbol },
      }),
    })
    try {
      const viaSse = (await sse.messages(all.length)).map((m) => JSON.parse(m.data!))
      expect(viaSse).toEqual(all)
      const viaGraphql = (await gql.messages(all.length))
        .filter((m) => m.event === 'next')
        .map((m) => JSON.parse(m.data!).data.marketEvents)
        .filter((e) => e.type === 'book')
      expect(viaGraphql).toEqual(events.map((e) => ({ sequence: String(e.sequence), type: 'book', book: { ...e.book, checksum: String(e.book.checksum) } })))
    } finally {
      sse.close()
      gql.close()
    }
  })
})

// --- Generated sequences ---

type Op =
  | { kind: 'limit'; tenant: number; side: Side; price: number; quantity: number; timeInForce: 'gtc' | 'ioc' }
  | { kind: 'market'; tenant: number; side: Side; quantity: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'amend'; pick: number; quantity: number | null; price: number | null }
  | { kind: 'snapshot' }

// Prices and quantities in tenths. Bids and asks overlap in part, so orders cross and sweep
// several levels, and each side holds more than 10 levels, so levels move in and out of the best 10.
const priceFor = (side: Side) => (side === 'buy' ? fc.integer({ min: 80, max: 104 }) : fc.integer({ min: 96, max: 120 }))
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom<Side>('buy', 'sell').chain((side) =>
      fc.record({
        kind: fc.constant('limit' as const),
        tenant: fc.nat(2),
        side: fc.constant(side),
        price: priceFor(side),
        quantity: fc.integer({ min: 1, max: 30 }),
        timeInForce: fc.constantFrom<'gtc' | 'ioc'>('gtc', 'gtc', 'gtc', 'ioc'),
      }),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('market' as const),
      tenant: fc.nat(2),
      side: fc.constantFrom<Side>('buy', 'sell'),
      quantity: fc.integer({ min: 1, max: 80 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(60) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('amend' as const),
      pick: fc.nat(60),
      quantity: fc.option(fc.integer({ min: 1, max: 30 })),
      price: fc.option(fc.integer({ min: 90, max: 110 })),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'snapshot' as const }) },
)
const tenths = (n: number) => (n % 10 === 0 ? String(n / 10) : (n / 10).toFixed(1))

describe('a client keeping a book from snapshot + book events', () => {
  it('computes the checksum of every book event, and of a fresh snapshot at the end, for generated sequences', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 20, maxLength: 40, size: 'max' }), async (ops) => {
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
        // 11 levels a side beyond the generated prices, so sweeps and cancels move levels in and out of the best 10.
        for (let i = 0; i < 11; i++) {
          await placeOrder(server, tenants[2]!.token, limit(symbol, 'buy', '0.5', tenths(79 - i)))
          await placeOrder(server, tenants[2]!.token, limit(symbol, 'sell', '0.5', tenths(121 + i)))
        }
        const first = (await book(symbol, '?depth=100')).body
        // Clients that started from the first snapshot, and from later ones: each sees the same checksums.
        const clients: { local: LocalBook; after: number }[] = [{ local: new LocalBook(first), after: first.sequence }]
        const placed: { uid: string; tenant: number }[] = []
        let bookEvents = 0
        const catchUp = async () => {
          for (const client of clients) {
            for (const event of await eventsAfter(symbol, client.after)) {
              expect(event.sequence).toBe(client.after + 1)
              client.after = event.sequence
              if (event.type !== 'book') continue
              client.local.apply(event.book)
              expect(client.local.checksum, JSON.stringify(event)).toBe(event.book.checksum)
              if (client === clients[0]) bookEvents++
            }
          }
        }
        for (const step of ops) {
          if (step.kind === 'snapshot') {
            const snapshot = (await book(symbol, '?depth=100')).body
            expect(snapshot.checksum).toBe(checksumOf(snapshot.asks, snapshot.bids))
            clients.push({ local: new LocalBook(snapshot), after: snapshot.sequence })
          } else if (step.kind === 'cancel' || step.kind === 'amend') {
            if (placed.length === 0) continue
            const { uid, tenant } = placed[step.pick % placed.length]!
            const token = tenants[tenant]!.token
            if (step.kind === 'cancel') expect([200, 409]).toContain((await server.request('DELETE', `${ORDERS}/${uid}`, { token })).status)
            else {
              const body = { ...(step.quantity !== null && { quantity: tenths(step.quantity) }), ...(step.price !== null && { price: tenths(step.price) }) }
              expect([200, 409, 422]).toContain((await server.request('PATCH', `${ORDERS}/${uid}`, { token, body })).status)
            }
          } else {
            const body =
              step.kind === 'limit'
                ? { ...limit(symbol, step.side, tenths(step.quantity), tenths(step.price)), time_in_force: step.timeInForce }
                : { symbol, side: step.side, type: 'market', quantity: tenths(step.quantity) }
            const res = await placeOrder(server, tenants[step.tenant]!.token, body)
            expect(res.status, JSON.stringify(res.body)).toBe(201)
            placed.push({ uid: res.body.uid, tenant: step.tenant })
          }
          await catchUp()
        }
        const last = (await book(symbol, '?depth=100')).body
        for (const { local, after } of clients) {
          expect(after).toBe(last.sequence)
          expect({ bids: local.levels('buy'), asks: local.levels('sell') }).toEqual({ bids: last.bids, asks: last.asks })
          expect(local.checksum).toBe(last.checksum)
        }
        expect(bookEvents).toBeGreaterThan(0)
      }),
      { numRuns: 8 },
    )
  })

  it('holds for the in-memory book alone: every level change carries the best levels as that change left them', () => {
    const d = (text: string) => parseDecimal(text)!
    fc.assert(
      fc.property(
        // The symbol's places: fewer than the book's scale (trailing zeros dropped), as many, or more (padded).
        fc.constantFrom(0, 1, 2, 3),
        fc.array(
          fc.record({
            kind: fc.constantFrom('limit', 'limit', 'limit', 'market', 'cancel', 'reduce'),
            tenant: fc.nat(2),
            side: fc.constantFrom<Side>('buy', 'sell'),
            // Bids from 6.0, asks up to 14.0, overlapping in part: each side soon holds more than 10 levels.
            offset: fc.integer({ min: 0, max: 44 }),
            quantity: fc.integer({ min: 1, max: 60 }),
            pick: fc.nat(200),
          }),
          // Long sequences (fast-check's default size keeps arrays to a handful of items), so the sides grow past 10 levels.
          { minLength: 50, maxLength: 300, size: 'max' },
        ),
        (places, steps) => {
          const render = (value: DecimalValue) => formatDecimalAtLeast(value, places)
          const memory = new OrderBook()
          const local = new LocalBook({ bids: [], asks: [] })
          const resting: string[] = []
          let seq = 0n
          const check = (changes: LevelChange[]) => {
            for (const change of changes) {
              local.apply({
                side: change.side,
                price: render(change.price),
                quantity: change.quantity.coefficient === 0n ? '0' : render(change.quantity),
                orders: change.orders,
              })
              const carried = crc32(`${capturedSideText(change.top.asks, places, places)}|${capturedSideText(change.top.bids, places, places)}`)
              expect(carried).toBe(local.checksum)
            }
          }
          for (const [i, step] of steps.entries()) {
            const uid = `o${i}`
            // Some prices and quantities with more places than others, so the book's scales grow on the way.
            const tenthsPrice = (step.side === 'buy' ? 60 : 96) + step.offset
            const price = d(i % 7 === 0 ? `${(tenthsPrice / 10).toFixed(1)}5` : `${tenthsPrice / 10}`)
            if (step.kind === 'limit' || step.kind === 'market') {
              const result = memory.match({
                uid,
                tenantId: String(step.tenant),
                side: step.side,
                type: step.kind,
                price: step.kind === 'limit' ? price : null,
                quantity: d(`${step.quantity / 10}`),
                seq: ++seq,
              })
              if (result.rested) resting.push(uid)
              check(result.levelChanges)
            } else if (resting.length > 0) {
              const target = resting[step.pick % resting.length]!
              const order = memory.get(target)
              if (!order) continue
              if (step.kind === 'cancel') check([memory.cancel(target)!.levelChange])
              else if (order.remaining.coefficient > 1n)
                check([memory.reduce(target, { coefficient: order.remaining.coefficient - 1n, scale: order.remaining.scale })])
            }
          }
        },
      ),
      { numRuns: 200 },
    )
  })
})

// Each instance keeps its own copy of the book and catches up with what the other wrote
// (docs/matching.md, "Many instances"): the checksums it writes must be of the book as stored.
describe.skipIf(!onPostgres)('two instances on one PostgreSQL', () => {
  let other: ServerProcess
  let symbol: string
  beforeAll(async () => {
    // Before the other instance starts, so its symbol cache knows the market.
    symbol = await createMarket(server.services.db)
    other = await startServerProcess({ DATABASE_URL: server.database.databaseUrl!, DATA_DIR: server.database.dataDir, PUBLIC_BASE_URL: TEST_BASE_URL })
  }, 120_000)
  afterAll(async () => {
    await other?.stop()
  })

  it('write book events whose checksums a client keeping the book confirms, whichever instance matched', { timeout: 60_000 }, async () => {
    const first = (await book(symbol, '?depth=100')).body
    const local = new LocalBook(first)
    const viaOther = (token: string, body: unknown) =>
      fetch(`${other.url}${ORDERS}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    // Asks and bids 12 levels deep, placed through both instances in turn, then sweeps through each.
    for (let i = 0; i < 12; i++) {
      const ask = limit(symbol, 'sell', '1', `${20 + i}.00`)
      const bid = limit(symbol, 'buy', '1', (10 - i / 2).toFixed(2))
      if (i % 2 === 0) {
        expect((await placeOrder(server, tenants[0]!.token, ask)).status).toBe(201)
        const res = await viaOther(tenants[1]!.token, bid)
        expect(res.status, await res.clone().text()).toBe(201)
      } else {
        expect((await viaOther(tenants[0]!.token, ask)).status).toBe(201)
        expect((await placeOrder(server, tenants[1]!.token, bid)).status).toBe(201)
      }
    }
    const placed = async (res: Promise<Response> | ReturnType<typeof placeOrder>) => {
      const answer = await res
      expect(answer.status, JSON.stringify('json' in answer ? await answer.clone().json() : answer.body)).toBe(201)
    }
    const market = (side: Side, quantity: string) => ({ symbol, side, type: 'market', quantity })
    await placed(viaOther(tenants[2]!.token, market('buy', '3')))
    // Only part of the best bid: the other instance's copy changes that level in place when it catches up.
    await placed(placeOrder(server, tenants[2]!.token, market('sell', '0.5')))
    await placed(viaOther(tenants[2]!.token, limit(symbol, 'buy', '1.5', '24.00')))
    await placed(placeOrder(server, tenants[2]!.token, market('sell', '2.5')))
    await placed(viaOther(tenants[0]!.token, limit(symbol, 'sell', '1', '8.00')))
    let checked = 0
    for (const event of await eventsAfter(symbol, first.sequence)) {
      if (event.type !== 'book') continue
      local.apply(event.book)
      expect(local.checksum, JSON.stringify(event)).toBe(event.book.checksum)
      checked++
    }
    expect(checked).toBeGreaterThan(24)
    const last = (await book(symbol, '?depth=100')).body
    expect(last.checksum).toBe(local.checksum)
  })
})
