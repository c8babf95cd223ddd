import { randomUUID } from 'node:crypto'
import { crc32 } from 'node:zlib'

import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { Db } from '../src/db/database.ts'
import { EVENTS_CHANNEL } from '../src/modules/exchange/event-log/event-log.ts'
import { lockBook } from '../src/modules/exchange/matching/matching.repository.ts'
import { Matching } from '../src/modules/exchange/matching/matching.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { onPostgres } from './helpers/database.ts'
import { eventually } from './helpers/eventually.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDERS, placeOrder, placeVia } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/
const FILL_KEYS = ['uid', 'created_at', 'order_uid', 'trade_uid', 'symbol', 'side', 'role', 'price', 'quantity', 'fee', 'fee_currency', 'liquidity']

let server: TestServer
let alice: TestClient
let bob: TestClient
let carol: TestClient
let admin: TestClient

beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  ;[alice, bob, carol, admin] = await Promise.all([
    createTestClient(server),
    createTestClient(server),
    createTestClient(server),
    createTestClient(server, { roles: ['admin'], scopes: ['*:*'] }),
  ])
})
afterAll(async () => {
  await server?.close()
})

const limit = (symbol: string, side: 'buy' | 'sell', quantity: string, price: string) => ({ symbol, side, type: 'limit', quantity, price })
const market = (symbol: string, side: 'buy' | 'sell', quantity: string) => ({ symbol, side, type: 'market', quantity })
const place = async (client: TestClient, body: unknown) => {
  const res = await placeOrder(server, client.token, body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}
const get = (client: TestClient, path: string) => server.request('GET', path, { token: client.token })
const book = async (symbol: string, query = '') => (await get(alice, `/api/exchange/v1/symbols/${symbol}/book${query}`)).body
const fillsOf = async (client: TestClient, orderUid: string) =>
  (await get(client, `/api/exchange/v1/fills?order_uid=${orderUid}&order_by=created_at`)).body.items

describe('matching in price-time priority', () => {
  it('trades a crossing limit order at the maker price; the rest of the taker rests', async () => {
    const symbol = await createMarket(server.services.db)
    const ask = await place(alice, limit(symbol, 'sell', '1.50', '100.00'))
    expect(ask).toMatchObject({ status: 'open', filled_quantity: '0', average_price: null, cancel_reason: null })

    const bid = await place(bob, limit(symbol, 'buy', '2.00', '101.00'))
    expect(bid).toMatchObject({ status: 'partially_filled', filled_quantity: '1.50', average_price: '100.00', cancel_reason: null })
    const maker = (await get(alice, `${ORDERS}/${ask.uid}`)).body
    expect(maker).toMatchObject({ status: 'filled', filled_quantity: '1.50', average_price: '100.00' })
    expect(maker.updated_at >= ask.updated_at).toBe(true)

    const [makerFill] = await fillsOf(alice, ask.uid)
    const [takerFill] = await fillsOf(bob, bid.uid)
    expect(Object.keys(makerFill)).toEqual(FILL_KEYS)
    expect(makerFill).toEqual({
      uid: expect.stringMatching(UUID),
      created_at: expect.stringMatching(TIMESTAMP),
      order_uid: ask.uid,
      trade_uid: expect.stringMatching(UUID),
      symbol,
      side: 'sell',
      role: 'maker',
      price: '100.00',
      quantity: '1.50',
      fee: '0.00',
      fee_currency: symbol.split('-')[1],
      liquidity: 'maker',
    })
    expect(takerFill).toMatchObject({ order_uid: bid.uid, trade_uid: makerFill.trade_uid, side: 'buy', role: 'taker', price: '100.00', quantity: '1.50' })

    // The book holds the taker's rest at its own price; the sequence counts every market event so far.
    // The ask (1), then the trade (2), its candle (3) and the two levels it changed (4, 5).
    expect(await book(symbol)).toEqual({
      symbol,
      sequence: 5,
      checksum: crc32('|101.00:0.50'),
      bids: [{ price: '101.00', quantity: '0.50', orders: 1 }],
      asks: [],
    })
    const trades = (await get(carol, `/api/exchange/v1/symbols/${symbol}/trades`)).body
    expect(trades).toEqual({
      heads: expect.objectContaining({ taker_side: { en: 'Taker Side' }, sequence: { en: 'Sequence' } }),
      items: [
        { uid: makerFill.trade_uid, symbol, price: '100.00', quantity: '1.50', taker_side: 'buy', created_at: expect.stringMatching(TIMESTAMP), sequence: 2 },
      ],
      total: 1,
      offset: 0,
      limit: 50,
    })
  })

  it('sweeps the best price first, oldest first at one price, each trade at its maker price', async () => {
    const symbol = await createMarket(server.services.db)
    const first = await place(alice, limit(symbol, 'sell', '1', '10.00'))
    const second = await place(bob, limit(symbol, 'sell', '1', '10.00'))
    const cheaper = await place(bob, limit(symbol, 'sell', '1', '9.50'))
    const dearer = await place(alice, limit(symbol, 'sell', '1', '10.50'))
    const taker = await place(carol, limit(symbol, 'buy', '2.5', '10.00'))
    expect(taker).toMatchObject({ status: 'filled', filled_quantity: '2.50', average_price: '9.80' })
    const fills = await fillsOf(carol, taker.uid)
    expect(fills.map((f: any) => [f.price, f.quantity])).toEqual([
      ['9.50', '1.00'],
      ['10.00', '1.00'],
      ['10.00', '0.50'],
    ])
    const owned: [TestClient, { uid: string }][] = [
      [alice, first],
      [bob, second],
      [bob, cheaper],
      [alice, dearer],
    ]
    const makers = await Promise.all(owned.map(async ([owner, o]) => (await get(owner, `${ORDERS}/${o.uid}`)).body))
    expect(makers.map((o) => [o.status, o.filled_quantity])).toEqual([
      ['filled', '1.00'],
      ['partially_filled', '0.50'],
      ['filled', '1.00'],
      ['open', '0'],
    ])
    // Filled before its limit mattered: the 10.50 ask is untouched, and nothing of the taker rests.
    expect(await book(symbol)).toMatchObject({
      bids: [],
      asks: [
        { price: '10.00', quantity: '0.50', orders: 1 },
        { price: '10.50', quantity: '1.00', orders: 1 },
      ],
    })
  })

  it('fills a market order against the book and cancels what is left (immediate-or-cancel)', async () => {
    const symbol = await createMarket(server.services.db)
    await place(alice, limit(symbol, 'sell', '1', '20.00'))
    await place(bob, limit(symbol, 'sell', '2', '21.00'))
    const partly = await place(carol, market(symbol, 'buy', '5'))
    expect(partly).toMatchObject({
      type: 'market',
      price: null,
      status: 'cancelled',
      cancel_reason: 'unfilled',
      filled_quantity: '3.00',
      average_price: '20.6666666667',
    })
    expect((await book(symbol)).asks).toEqual([])

    await place(alice, limit(symbol, 'buy', '4', '19.00'))
    const whole = await place(bob, market(symbol, 'sell', '4'))
    expect(whole).toMatchObject({ status: 'filled', cancel_reason: null, filled_quantity: '4.00', average_price: '19.00' })
  })

  it("never trades an order with its own tenant's: the rest of the incoming order is cancelled (self_trade)", async () => {
    const symbol = await createMarket(server.services.db)
    const colleague = await createTestClient(server, { tenant_id: alice.tenantId })
    await place(bob, limit(symbol, 'sell', '1', '50.00'))
    const own = await place(colleague, limit(symbol, 'sell', '1', '50.10'))
    const buy = await place(alice, limit(symbol, 'buy', '3', '51.00'))
    expect(buy).toMatchObject({ status: 'cancelled', cancel_reason: 'self_trade', filled_quantity: '1.00', average_price: '50.00' })
    // The own order rests untouched, and nothing of the buy rests.
    expect((await get(alice, `${ORDERS}/${own.uid}`)).body).toMatchObject({ status: 'open', filled_quantity: '0' })
    expect(await book(symbol)).toMatchObject({ bids: [], asks: [{ price: '50.10', quantity: '1.00', orders: 1 }] })
    const blocked = await place(colleague, market(symbol, 'buy', '1'))
    expect(blocked).toMatchObject({ status: 'cancelled', cancel_reason: 'self_trade', filled_quantity: '0' })
  })

  it('answers an order on one symbol without touching the others', async () => {
    const [one, two] = await Promise.all([createMarket(server.services.db), createMarket(server.services.db)])
    await place(alice, limit(one, 'sell', '1', '10.00'))
    const other = await place(bob, limit(two, 'buy', '1', '10.00'))
    expect(other.status).toBe('open')
    expect((await book(one)).asks).toHaveLength(1)
  })

  it('rebuilds the book from the database after a restart', async () => {
    const restarting = await startTestServer({}, server.database)
    const symbol = await createMarket(restarting.services.db)
    const maker = await placeOrder(restarting, alice.token, limit(symbol, 'sell', '2', '30.00'))
    expect(maker.status).toBe(201)
    await restarting.stop()
    const again = await startTestServer({}, server.database)
    try {
      const taker = await placeOrder(again, bob.token, limit(symbol, 'buy', '1', '30.00'))
      expect(taker.body).toMatchObject({ status: 'filled', average_price: '30.00' })
      expect((await again.request('GET', `${ORDERS}/${maker.body.uid}`, { token: alice.token })).body).toMatchObject({
        status: 'partially_filled',
        filled_quantity: '1.00',
      })
    } finally {
      await again.stop()
    }
  })

  it("matches against orders another process wrote: the book in memory follows the database's epoch", async () => {
    const symbol = await createMarket(server.services.db)
    const first = await place(alice, limit(symbol, 'sell', '1', '40.00'))
    // Another writer (here: plain SQL standing for another process's pass) fills it, stamps it with
    // the epoch it writes, and moves the book's epoch on: this process catches up from that one row.
    await sql`update orders set status = 'filled', filled_quantity = quantity, filled_notional = quantity * price, average_price = price,
      book_epoch = (select epoch + 1 from symbol_books where symbol = ${symbol}) where uid = ${first.uid}`.execute(server.services.db)
    await sql`update symbol_books set epoch = epoch + 1 where symbol = ${symbol}`.execute(server.services.db)
    const taker = await place(bob, limit(symbol, 'buy', '1', '40.00'))
    expect(taker).toMatchObject({ status: 'open', filled_quantity: '0' })
  })
})

describe('the reference price after trading', () => {
  it("becomes the previous day's close on the first trade of a day", async () => {
    const symbol = await createMarket(server.services.db)
    await place(alice, limit(symbol, 'sell', '1', '70.00'))
    await place(bob, limit(symbol, 'buy', '1', '70.00'))
    expect((await get(alice, `/api/exchange/v1/symbols/${symbol}`)).body.reference_price).toBeUndefined()
    const stored = async () =>
      (await server.services.db.selectFrom('symbols').select('reference_price').where('symbol', '=', symbol).executeTakeFirstOrThrow()).reference_price
    expect(await stored()).toBeNull()
    // That trade was yesterday's last: the next trade, today's first, makes its price the reference.
    await sql`update symbol_books set last_trade_at = last_trade_at - interval '1 day' where symbol = ${symbol}`.execute(server.services.db)
    await place(alice, limit(symbol, 'sell', '1', '71.00'))
    await place(bob, limit(symbol, 'buy', '1', '71.00'))
    expect(await stored()).toBe('70.00')
    await place(alice, limit(symbol, 'sell', '1', '72.00'))
    await place(bob, limit(symbol, 'buy', '1', '72.00'))
    expect(await stored()).toBe('70.00')
  })
})

describe('GET /api/exchange/v1/fills', () => {
  let symbol: string
  let buy: { uid: string }
  beforeAll(async () => {
    symbol = await createMarket(server.services.db)
    await place(alice, limit(symbol, 'sell', '1', '5.00'))
    buy = await place(bob, limit(symbol, 'buy', '1', '5.00'))
  })

  it("lists the caller's tenant's fills only, in the envelope with the fill heads", async () => {
    const res = await get(bob, `/api/exchange/v1/fills?symbol=${symbol}`)
    expect(res.status).toBe(200)
    expect(Object.keys(res.body.heads)).toEqual(FILL_KEYS)
    expect(res.body.heads.order_uid).toEqual({ en: 'Order UID' })
    expect(res.body).toMatchObject({ total: 1, offset: 0, limit: 100 })
    expect(res.body.items).toEqual([expect.objectContaining({ order_uid: buy.uid, role: 'taker', side: 'buy' })])
    expect((await get(carol, `/api/exchange/v1/fills?symbol=${symbol}`)).body.total).toBe(0)
  })

  it('filters by side and order, and lets admins read every tenant or one', async () => {
    expect((await get(bob, `/api/exchange/v1/fills?symbol=${symbol}&side=sell`)).body.total).toBe(0)
    expect((await get(admin, `/api/exchange/v1/fills?symbol=${symbol}`)).body.total).toBe(2)
    expect((await get(admin, `/api/exchange/v1/fills?symbol=${symbol}&tenant_id=${alice.tenantId}`)).body.items.map((f: any) => f.role)).toEqual(['maker'])
    const foreign = await get(bob, `/api/exchange/v1/fills?tenant_id=${alice.tenantId}`)
    expect(foreign.status).toBe(403)
    expect(foreign.body).toEqual({ message: 'Token belongs to different client', error: 'permission_denied', detail: 'Token belongs to different client' })
  })

  it('validates its query like every list, without updated_at filters (fills never change)', async () => {
    const res = await get(bob, '/api/exchange/v1/fills?limit=101&side=up&order_uid=x&updated_at_from=2026-01-01T00:00:00Z&order_by=price')
    expect(res.status).toBe(422)
    expect(res.body.detail.map((d: any) => [d.loc.join('.'), d.type])).toEqual([
      ['query.limit', 'value_error.number.not_le'],
      ['query.side', 'type_error.enum'],
      ['query.order_uid', 'type_error.uuid'],
      ['query.updated_at_from', 'value_error.extra'],
    ])
    const scopeless = await createTestClient(server, { scopes: ['symbols:read'] })
    expect((await get(scopeless, '/api/exchange/v1/fills')).status).toBe(403)
  })
})

describe('market data', () => {
  it('answers the book with depth levels per side, bids high to low, asks low to high', async () => {
    const symbol = await createMarket(server.services.db)
    for (const [price, quantity] of [
      ['9.00', '1'],
      ['8.00', '2'],
      ['8.00', '3'],
      ['7.00', '1'],
    ])
      await place(alice, limit(symbol, 'buy', quantity!, price!))
    for (const price of ['11.00', '12.00', '13.00']) await place(bob, limit(symbol, 'sell', '1', price))
    const full = await book(symbol)
    expect(full.bids).toEqual([
      { price: '9.00', quantity: '1.00', orders: 1 },
      { price: '8.00', quantity: '5.00', orders: 2 },
      { price: '7.00', quantity: '1.00', orders: 1 },
    ])
    expect(full.asks.map((l: any) => l.price)).toEqual(['11.00', '12.00', '13.00'])
    expect(full.sequence).toBe(7)
    const top = await book(symbol, '?depth=1')
    expect(top).toEqual({
      symbol,
      sequence: 7,
      // Of the best 10 levels of each side, whatever the depth.
      checksum: crc32('11.00:1.00,12.00:1.00,13.00:1.00|9.00:1.00,8.00:5.00,7.00:1.00'),
      bids: [{ price: '9.00', quantity: '1.00', orders: 1 }],
      asks: [{ price: '11.00', quantity: '1.00', orders: 1 }],
    })
    // Lower case names the same symbol, as everywhere.
    expect((await book(symbol.toLowerCase())).symbol).toBe(symbol)
  })

  it('validates depth and limit, answers 404 for an unknown symbol and requires symbols:read', async () => {
    const symbol = await createMarket(server.services.db)
    for (const [query, type] of [
      ['?depth=0', 'value_error.number.not_ge'],
      ['?depth=101', 'value_error.number.not_le'],
      ['?depth=x', 'type_error.integer'],
      ['?level=2', 'value_error.extra'],
    ]) {
      const res = await get(alice, `/api/exchange/v1/symbols/${symbol}/book${query}`)
      expect(res.status).toBe(422)
      expect(res.body.detail[0].type).toBe(type)
    }
    expect((await get(alice, `/api/exchange/v1/symbols/${symbol}/trades?limit=101`)).status).toBe(422)
    const missing = await get(alice, '/api/exchange/v1/symbols/NOPE-NADA/book')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ message: 'Symbol NOPE-NADA not found', error: 'not_found', detail: 'Symbol NOPE-NADA not found' })
    const noScope = await createTestClient(server, { scopes: ['orders:read'] })
    expect((await get(noScope, `/api/exchange/v1/symbols/${symbol}/trades`)).status).toBe(403)
  })

  it('lists trades newest first, limited', async () => {
    const symbol = await createMarket(server.services.db)
    for (const price of ['1.00', '2.00', '3.00']) {
      await place(alice, limit(symbol, 'sell', '1', price))
      await place(bob, limit(symbol, 'buy', '1', price))
    }
    const res = (await get(carol, `/api/exchange/v1/symbols/${symbol}/trades?limit=2`)).body
    expect(res).toMatchObject({ total: 3, offset: 0, limit: 2 })
    expect(res.items.map((t: any) => [t.price, t.taker_side])).toEqual([
      ['3.00', 'buy'],
      ['2.00', 'buy'],
    ])
    expect(res.items[0].sequence).toBeGreaterThan(res.items[1].sequence)
  })
})

describe('POST /api/exchange/v1/orders/validate', () => {
  const validate = (client: TestClient | undefined, body: unknown) => server.request('POST', `${ORDERS}/validate`, { token: client?.token, body })

  it('answers { valid: true } and stores, matches and counts nothing', async () => {
    const symbol = await createMarket(server.services.db)
    await place(alice, limit(symbol, 'sell', '1', '10.00'))
    const before = await server.services.db
      .selectFrom('orders')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
    const res = await validate(bob, { ...limit(symbol, 'buy', '1', '10.00'), client_order_id: 'dry-1' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ valid: true })
    const after = await server.services.db
      .selectFrom('orders')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
    expect(after.n).toBe(before.n)
    expect((await book(symbol)).asks).toHaveLength(1)
    // The id was not used: placing the order now creates it.
    expect((await placeOrder(server, bob.token, { ...limit(symbol, 'buy', '1', '9.00'), client_order_id: 'dry-1' })).status).toBe(201)
  })

  it('answers what placing would answer for a refused order, with the same bodies', async () => {
    const symbol = await createMarket(server.services.db)
    const bad = { symbol, side: 'up', type: 'limit', quantity: '0.001', price: '1.005' }
    const placed = await placeOrder(server, alice.token, bad)
    const dry = await validate(alice, bad)
    expect(placed.status).toBe(422)
    expect(dry.status).toBe(422)
    expect(dry.body).toEqual(placed.body)
    expect((await validate(undefined, bad)).status).toBe(401)
    const reader = await createTestClient(server, { scopes: ['orders:read'] })
    expect((await validate(reader, bad)).body).toEqual({
      message: 'Access denied: requires orders:write',
      error: 'permission_denied',
      detail: 'Access denied: requires orders:write',
    })

    const order = { ...limit(symbol, 'buy', '1', '1.00'), client_order_id: 'dry-2' }
    await place(alice, order)
    expect((await validate(alice, order)).body).toEqual({ valid: true })
    const reused = await validate(alice, { ...order, quantity: '2' })
    expect(reused.status).toBe(409)
    expect(reused.body.error).toBe('conflict')
  })

  it('refuses generated orders exactly as placing them does: one admission (rules, funds, time in force)', async () => {
    const funded = await createMarket(server.services.db)
    const unfunded = await createMarket(server.services.db, {}, { funded: false })
    // A fixed Park-Miller sequence: the same orders on every run.
    let seed = 39
    const pick = <T>(values: readonly T[]): T => values[(seed = (seed * 48271) % 2147483647) % values.length]!
    const seen = new Map<string, number>()
    for (let i = 0; i < 24; i++) {
      const type = pick(['limit', 'market'] as const)
      const body = {
        symbol: pick([funded, unfunded, unfunded]),
        side: pick(['buy', 'sell'] as const),
        type,
        quantity: pick(['0', '0.001', '0.5', '3']),
        ...(pick([true, type === 'limit', type === 'limit']) && { price: pick(['0', '10.005', '10.00', '11.00']) }),
        time_in_force: pick(['gtc', 'ioc', 'fok']),
      }
      const dry = await validate(carol, body)
      const placed = await placeOrder(server, carol.token, body)
      const label = JSON.stringify(body)
      if (dry.status === 200) expect(placed.status, label).toBe(201)
      else {
        expect(placed.status, label).toBe(dry.status)
        expect(placed.body, label).toEqual(dry.body)
      }
      const kind = dry.status === 200 ? 'valid' : (dry.body.detail?.[0]?.type ?? dry.body.error)
      seen.set(kind, (seen.get(kind) ?? 0) + 1)
    }
    // The sequence reaches every stage of admission: the symbol's rules, the funds, and valid orders.
    expect([...seen.keys()].sort()).toEqual(
      expect.arrayContaining(['valid', 'value_error.insufficient_balance', 'value_error.number.not_gt', 'value_error.number.not_multiple']),
    )
  })
})

describe('the same through GraphQL', () => {
  it('answers createOrder after its matching pass, with fills, and reads fills, the book and trades', async () => {
    const symbol = await createMarket(server.services.db)
    await place(alice, limit(symbol, 'sell', '2', '15.00'))
    const created = await server.graphql(
      `mutation($input: CreateOrderInput!) { createOrder(input: $input) { created order { status filledQuantity averagePrice cancelReason fills { side role price quantity } } } }`,
      { input: { symbol, side: 'buy', type: 'market', quantity: '3' } },
      { token: bob.token },
    )
    expect(created.errors).toBeUndefined()
    expect(created.data).toEqual({
      createOrder: {
        created: true,
        order: {
          status: 'cancelled',
          filledQuantity: '2.00',
          averagePrice: '15.00',
          cancelReason: 'unfilled',
          fills: [{ side: 'buy', role: 'taker', price: '15.00', quantity: '2.00' }],
        },
      },
    })
    const read = await server.graphql(
      `query($symbol: String!) {
        fills(filter: { symbol: $symbol }) { total items { role side price quantity } }
        orderBook(symbol: $symbol, depth: 5) { symbol sequence bids { price } asks { price } }
        symbol(symbol: $symbol) { orderBook { sequence } trades(limit: 5) { price quantity takerSide sequence } }
      }`,
      { symbol },
      { token: alice.token },
    )
    expect(read.errors).toBeUndefined()
    expect(read.data).toEqual({
      fills: { total: 1, items: [{ role: 'maker', side: 'sell', price: '15.00', quantity: '2.00' }] },
      orderBook: { symbol, sequence: '4', bids: [], asks: [] },
      symbol: { orderBook: { sequence: '4' }, trades: [{ price: '15.00', quantity: '2.00', takerSide: 'buy', sequence: '2' }] },
    })
    expect((await server.graphql('{ orderBook(symbol: "NOPE-NADA") { symbol } }', undefined, { token: alice.token })).data).toEqual({ orderBook: null })
  })

  it('validates an order with the same errors as createOrder', async () => {
    const symbol = await createMarket(server.services.db)
    const input = { symbol, side: 'buy', type: 'limit', quantity: '0.001', price: '1.00' }
    const dry = await server.graphql('mutation($input: CreateOrderInput!) { validateOrder(input: $input) { valid } }', { input }, { token: alice.token })
    const real = await server.graphql('mutation($input: CreateOrderInput!) { createOrder(input: $input) { created } }', { input }, { token: alice.token })
    expect(dry.errors?.[0]?.extensions).toEqual(real.errors?.[0]?.extensions)
    expect(dry.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT')
    const ok = await server.graphql(
      'mutation($input: CreateOrderInput!) { validateOrder(input: $input) { valid } }',
      { input: { ...input, quantity: '1' } },
      { token: alice.token },
    )
    expect(ok.data).toEqual({ validateOrder: { valid: true } })
  })
})

describe.skipIf(!onPostgres)("a pass's plans on PostgreSQL", () => {
  it('update rows by key whatever the tables hold, and leave the connection as it was', async () => {
    // A connection keeps its first generic plan of the write statement: made on small tables, it
    // scanned `orders` whole to update a few makers, and kept doing so as the table grew.
    const plan = (db: Db) =>
      sql<{ 'QUERY PLAN': string }>`explain execute pass_plan_probe(${sql.lit(`{${randomUUID()}}`)})`
        .execute(db)
        .then(({ rows }) => rows.map((row) => row['QUERY PLAN']).join('\n'))
    await server.services.db.connection().execute(async (connection) => {
      await sql`set plan_cache_mode = force_generic_plan`.execute(connection)
      await sql`prepare pass_plan_probe(uuid[]) as update orders o set updated_at = o.updated_at from unnest($1) c(uid) where o.uid = c.uid`.execute(connection)
      try {
        const inPass = await connection.transaction().execute(async (trx) => {
          await lockBook(trx, 'BTC-USDT', [])
          return plan(trx)
        })
        expect(inPass).toMatch(/Index Scan using orders_pkey on orders/)
        expect(inPass).not.toMatch(/Seq Scan on orders|Hash Join/)
        const after = sql<{ scans: string; joins: string }>`select current_setting('enable_seqscan') as scans, current_setting('enable_hashjoin') as joins`
        expect((await after.execute(connection)).rows).toEqual([{ scans: 'on', joins: 'on' }])
      } finally {
        await sql`deallocate pass_plan_probe`.execute(connection)
        await sql`reset plan_cache_mode`.execute(connection)
      }
    })
  })
})

describe.skipIf(!onPostgres)('a pass waiting for the book', () => {
  it('takes the orders queued behind it, in order, up to one of a tenant whose accounts it did not read', async () => {
    const symbol = await createMarket(server.services.db)
    await place(alice, limit(symbol, 'sell', '1.00', '100.00'))
    const epochs = async (uids: string[]) =>
      (await sql<{ uid: string; book_epoch: number }>`select uid, book_epoch from orders where uid = any(${uids}::uuid[])`.execute(server.services.db)).rows
    const placed: Promise<{ uid: string }>[] = []
    await server.services.db.connection().execute((connection) =>
      connection.transaction().execute(async (trx) => {
        // Another process's pass, as far as this one can tell: the book row is locked until this commits.
        await sql`select epoch from symbol_books where symbol = ${symbol} for update`.execute(trx)
        placed.push(place(bob, limit(symbol, 'buy', '0.10', '90.00')))
        await eventually(async () => {
          const { rows } = await sql<{ n: number }>`
            select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(trx)
          return rows[0]!.n > 0 ? true : undefined
        }, 5000)
        for (const [client, price] of [
          [bob, '90.01'],
          [bob, '90.02'],
          [carol, '90.03'],
          [bob, '90.04'],
        ] as const) {
          placed.push(place(client, limit(symbol, 'buy', '0.10', price)))
          const queued = placed.length - 1
          await eventually(async () => (server.services.matching.queued(symbol) === queued ? true : undefined), 5000, 10)
        }
      }),
    )
    const uids = (await Promise.all(placed)).map((order) => order.uid)
    const byUid = new Map((await epochs(uids)).map((row) => [row.uid, row.book_epoch]))
    const [first, second, third, fourth, fifth] = uids.map((uid) => byUid.get(uid)!)
    // bob's first pass took bob's two orders queued while it waited; carol's stopped it, and bob's
    // last stays behind hers: the next pass takes both, in their order.
    expect([second, third]).toEqual([first, first])
    expect(fourth).toBeGreaterThan(first!)
    expect(fifth).toBe(fourth)
    const book = (await get(alice, `/api/exchange/v1/symbols/${symbol}/book`)).body
    expect(book.bids.map((level: { price: string }) => level.price)).toEqual(['90.04', '90.03', '90.02', '90.01', '90.00'])
  })
})

describe.skipIf(!onPostgres)("a pass's wake-ups of other processes", () => {
  it('ride on its steps, each stream once, with no NOTIFY of its own when it ends on a full step', async () => {
    const symbol = await createMarket(server.services.db)
    await place(alice, limit(symbol, 'sell', '0.10', '100.00'))
    const base = server.services.db
    const texts: string[] = []
    const db: Db = base.withPlugin({
      transformQuery: ({ node, queryId }) => {
        texts.push(base.getExecutor().compileQuery(node, queryId).sql)
        return node
      },
      transformResult: async ({ result }) => result,
    })
    const listener = new pg.Client({ connectionString: server.database.databaseUrl })
    await listener.connect()
    const heard: string[] = []
    listener.on('notification', (n) => {
      if (n.payload?.startsWith('other ')) heard.push(n.payload)
    })
    await listener.query(`listen ${EVENTS_CHANNEL}`)
    try {
      // Two fills make a step full: the trade's step is written before the pass knows nothing follows.
      const other = new Matching(db, {
        maxConcurrentPasses: 1,
        transactions: true,
        fillsPerStep: 2,
        events: { committed: () => {}, notify: { instance: 'other' } },
      })
      const order = await placeVia(other, bob, { symbol, side: 'buy', type: 'limit', quantity: '0.10', price: '100.00' })
      expect(order.status).toBe('filled')
      await eventually(async () => (heard.length > 0 ? true : undefined), 5000, 10)
      expect(texts.filter((text) => text.includes('pg_notify') && !text.includes('with book as'))).toEqual([])
      expect(heard.flatMap((payload) => payload.split(' ').slice(1)).sort()).toEqual([`m:${symbol}`, `t:${alice.tenantId}`, `t:${bob.tenantId}`].sort())
    } finally {
      await listener.end()
    }
  })
})
