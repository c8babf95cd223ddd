import { randomUUID } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { checkAccounts } from '../src/modules/exchange/accounts/accounts.ts'
import { readEvents, tenantStream } from '../src/modules/exchange/events/events.repository.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDERS, placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const API = '/api/exchange/v1'

let server: TestServer
let admin: TestClient
beforeAll(async () => {
  server = await startTestServer()
  admin = await createTestClient(server, { roles: ['admin'], scopes: ['*:*'], funded: false })
})
afterAll(async () => {
  await server?.close()
})

/** A market of its own (prices and quantities to 2 places) and three funded banks. */
async function market() {
  const [a, b, c] = await Promise.all([createTestClient(server), createTestClient(server), createTestClient(server)])
  const symbol = await createMarket(server.services.db)
  return { symbol, a, b, c }
}

const limit = (symbol: string, side: 'buy' | 'sell', quantity: string, price: string, extra: Record<string, unknown> = {}) => ({
  symbol,
  side,
  type: 'limit',
  quantity,
  price,
  ...extra,
})

async function placed(client: TestClient, body: Record<string, unknown>) {
  const res = await placeOrder(server, client.token, body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

const amend = (client: TestClient, uid: string, body: unknown) => server.request('PATCH', `${ORDERS}/${uid}`, { token: client.token, body })
const order = async (client: TestClient, uid: string) => (await server.request('GET', `${ORDERS}/${uid}`, { token: client.token })).body
const fillsOf = async (client: TestClient, uid: string) =>
  (await server.request('GET', `${API}/fills?order_uid=${uid}`, { token: client.token })).body.items as Record<string, string>[]
const bookOf = async (symbol: string) => (await server.request('GET', `${API}/symbols/${symbol}/book`, { token: admin.token })).body
const detail = (res: { body: { detail: { loc: (string | number)[]; type: string; msg: string; ctx?: unknown; input?: unknown }[] } }) =>
  res.body.detail.map((d) => ({ loc: d.loc.join('.'), type: d.type, msg: d.msg, ctx: d.ctx, input: d.input }))

describe('time in force', () => {
  it('ioc: trades what crosses in its pass and cancels the rest unfilled', async () => {
    const { symbol, a, b } = await market()
    await placed(a, limit(symbol, 'sell', '2', '10.00'))
    const ioc = await placed(b, limit(symbol, 'buy', '3', '10.50', { time_in_force: 'ioc' }))
    expect(ioc).toMatchObject({ status: 'cancelled', cancel_reason: 'unfilled', filled_quantity: '2.00', average_price: '10.00', time_in_force: 'ioc' })
    const alone = await placed(b, limit(symbol, 'buy', '1', '10.00', { time_in_force: 'ioc' }))
    expect(alone).toMatchObject({ status: 'cancelled', cancel_reason: 'unfilled', filled_quantity: '0' })
    expect((await bookOf(symbol)).bids).toEqual([])
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('fok: fills entirely in its pass, or is cancelled with nothing filled and the book untouched', async () => {
    const { symbol, a, b } = await market()
    const ask = await placed(a, limit(symbol, 'sell', '2', '10.00'))
    const tooBig = await placed(b, limit(symbol, 'buy', '3', '10.50', { time_in_force: 'fok' }))
    expect(tooBig).toMatchObject({ status: 'cancelled', cancel_reason: 'unfilled', filled_quantity: '0', time_in_force: 'fok' })
    expect(await order(a, ask.uid)).toMatchObject({ status: 'open', filled_quantity: '0' })
    const fits = await placed(b, limit(symbol, 'buy', '2', '10.00', { time_in_force: 'fok' }))
    expect(fits).toMatchObject({ status: 'filled', filled_quantity: '2.00' })
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it("fok: counts only what it could trade before its own tenant's order stops it", async () => {
    const { symbol, a, b } = await market()
    await placed(a, limit(symbol, 'sell', '1', '10.00'))
    await placed(b, limit(symbol, 'sell', '5', '10.10'))
    await placed(a, limit(symbol, 'sell', '5', '10.20'))
    // Self-trade prevention would stop b's buy at its own ask of 10.10: 1 of 2 is all it could take.
    const fok = await placed(b, limit(symbol, 'buy', '2', '10.50', { time_in_force: 'fok' }))
    expect(fok).toMatchObject({ status: 'cancelled', cancel_reason: 'unfilled', filled_quantity: '0' })
    expect((await bookOf(symbol)).asks.map((l: { quantity: string }) => l.quantity)).toEqual(['1.00', '5.00', '5.00'])
  })

  it('market orders are ioc: the record says so, gtc and fok are refused', async () => {
    const { symbol, b } = await market()
    const market1 = await placed(b, { symbol, side: 'buy', type: 'market', quantity: '1' })
    expect(market1).toMatchObject({ time_in_force: 'ioc', post_only: false, status: 'cancelled', cancel_reason: 'unfilled' })
    expect((await placeOrder(server, b.token, { symbol, side: 'buy', type: 'market', quantity: '1', time_in_force: 'ioc' })).status).toBe(201)
    for (const timeInForce of ['gtc', 'fok']) {
      const res = await placeOrder(server, b.token, { symbol, side: 'buy', type: 'market', quantity: '1', time_in_force: timeInForce })
      expect(res.status).toBe(422)
      expect(detail(res)).toEqual([
        {
          loc: 'body.time_in_force',
          type: 'type_error.enum',
          msg: "value is not a valid enumeration member; permitted: 'ioc'",
          ctx: { enum_values: ['ioc'] },
          input: timeInForce,
        },
      ])
    }
    const unknown = await placeOrder(server, b.token, limit(symbol, 'buy', '1', '10.00', { time_in_force: 'day' }))
    expect(detail(unknown)).toEqual([
      {
        loc: 'body.time_in_force',
        type: 'type_error.enum',
        msg: "value is not a valid enumeration member; permitted: 'gtc', 'ioc', 'fok', 'gtd'",
        ctx: { enum_values: ['gtc', 'ioc', 'fok', 'gtd'] },
        input: 'day',
      },
    ])
  })
})

describe('post-only', () => {
  it('rests when it would not trade, and is cancelled post_only, holding nothing, when it would', async () => {
    const { symbol, a, b } = await market()
    await placed(a, limit(symbol, 'sell', '2', '10.00'))
    const maker = await placed(b, limit(symbol, 'buy', '1', '9.99', { post_only: true }))
    expect(maker).toMatchObject({ status: 'open', post_only: true, time_in_force: 'gtc' })
    const crossing = await placed(b, limit(symbol, 'buy', '1', '10.00', { post_only: true }))
    expect(crossing).toMatchObject({ status: 'cancelled', cancel_reason: 'post_only', filled_quantity: '0', post_only: true })
    expect((await bookOf(symbol)).asks).toEqual([{ price: '10.00', quantity: '2.00', orders: 1 }])
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('is refused on market orders and on ioc or fok', async () => {
    const { symbol, b } = await market()
    const msg = 'post_only applies only to limit orders that rest (gtc or gtd)'
    for (const body of [
      { symbol, side: 'buy', type: 'market', quantity: '1', post_only: true },
      limit(symbol, 'buy', '1', '10.00', { post_only: true, time_in_force: 'ioc' }),
      limit(symbol, 'buy', '1', '10.00', { post_only: true, time_in_force: 'fok' }),
    ]) {
      const res = await placeOrder(server, b.token, body)
      expect(res.status).toBe(422)
      expect(detail(res)).toEqual([{ loc: 'body.post_only', type: 'value_error.post_only', msg, ctx: undefined, input: true }])
    }
    const notBool = await placeOrder(server, b.token, limit(symbol, 'buy', '1', '10.00', { post_only: 'yes' }))
    expect(detail(notBool)).toEqual([
      { loc: 'body.post_only', type: 'type_error.bool', msg: 'value could not be parsed to a boolean', ctx: undefined, input: 'yes' },
    ])
  })

  it('makes time in force and post-only part of what a client_order_id names', async () => {
    const { symbol, b } = await market()
    const body = limit(symbol, 'buy', '1', '9.00', { client_order_id: `po-${randomUUID()}`, post_only: true })
    const first = await placed(b, body)
    const again = await placeOrder(server, b.token, body)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first)
    expect((await placeOrder(server, b.token, { ...body, post_only: false })).status).toBe(409)
    expect((await placeOrder(server, b.token, { ...body, time_in_force: 'ioc', post_only: undefined })).status).toBe(409)
  })
})

describe('PATCH /api/exchange/v1/orders/:uid', () => {
  it('keeps time priority when only the quantity goes down', async () => {
    const { symbol, a, b, c } = await market()
    const first = await placed(a, limit(symbol, 'sell', '2', '10.00'))
    const second = await placed(b, limit(symbol, 'sell', '2', '10.00'))
    const res = await amend(a, first.uid, { quantity: '1.5' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ uid: first.uid, quantity: '1.5', price: '10.00', status: 'open' })
    expect((await bookOf(symbol)).asks).toEqual([{ price: '10.00', quantity: '3.50', orders: 2 }])
    await placed(c, limit(symbol, 'buy', '1', '10.00'))
    expect(await order(a, first.uid)).toMatchObject({ filled_quantity: '1.00', status: 'partially_filled' })
    expect(await order(b, second.uid)).toMatchObject({ filled_quantity: '0' })
  })

  it('sends the order to the back of its level when the quantity goes up', async () => {
    const { symbol, a, b, c } = await market()
    const first = await placed(a, limit(symbol, 'sell', '2', '10.00'))
    const second = await placed(b, limit(symbol, 'sell', '2', '10.00'))
    expect((await amend(a, first.uid, { quantity: '3' })).body).toMatchObject({ quantity: '3', status: 'open' })
    await placed(c, limit(symbol, 'buy', '1', '10.00'))
    expect(await order(a, first.uid)).toMatchObject({ filled_quantity: '0' })
    expect(await order(b, second.uid)).toMatchObject({ filled_quantity: '1.00' })
  })

  it('trades at once when a new price crosses, as a new order would, at the makers’ prices', async () => {
    const { symbol, a, b } = await market()
    await placed(a, limit(symbol, 'sell', '1', '10.50'))
    await placed(a, limit(symbol, 'sell', '1', '10.70'))
    const bid = await placed(b, limit(symbol, 'buy', '3', '10.00'))
    const res = await amend(b, bid.uid, { price: '10.60' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ price: '10.60', status: 'partially_filled', filled_quantity: '1.00', average_price: '10.50' })
    const fills = await fillsOf(b, bid.uid)
    expect(fills.map((f) => [f.role, f.price, f.quantity])).toEqual([['taker', '10.50', '1.00']])
    expect((await bookOf(symbol)).bids).toEqual([{ price: '10.60', quantity: '2.00', orders: 1 }])
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('moves the hold with the new values, and refuses what the balance cannot cover, changing nothing', async () => {
    const [poor, rich] = await Promise.all([createTestClient(server, { funded: false }), createTestClient(server)])
    const symbol = await createMarket(server.services.db, {}, { funded: false })
    const quote = symbol.split('-')[1]!
    const deposit = await server.request('POST', `${API}/transfers`, {
      token: admin.token,
      body: { tenant_id: poor.tenantId, currency: quote, amount: '30', kind: 'deposit', reference: `amend-${poor.tenantId}` },
    })
    expect(deposit.status).toBe(201)
    void rich
    const account = async () => (await server.request('GET', `${API}/accounts/${quote}`, { token: poor.token })).body
    const bid = await placed(poor, limit(symbol, 'buy', '2', '10.00'))
    expect(await account()).toMatchObject({ hold: '20.00', available: '10.00' })
    expect((await amend(poor, bid.uid, { price: '12.00' })).status).toBe(200)
    expect(await account()).toMatchObject({ hold: '24.00', available: '6.00' })
    expect((await amend(poor, bid.uid, { quantity: '1' })).status).toBe(200)
    expect(await account()).toMatchObject({ hold: '12.00', available: '18.00' })
    const refused = await amend(poor, bid.uid, { quantity: '3', price: '11.00' })
    expect(refused.status).toBe(422)
    expect(detail(refused)).toEqual([
      {
        loc: 'body.quantity',
        type: 'value_error.insufficient_balance',
        msg: `insufficient balance: ${quote} available 18.00, required 21.00`,
        ctx: { currency: quote, available: '18.00', required: '21.00' },
        input: '3',
      },
    ])
    expect(await order(poor, bid.uid)).toMatchObject({ quantity: '1', price: '12.00', status: 'open' })
    expect(await account()).toMatchObject({ hold: '12.00', available: '18.00' })
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('never lets the quantity fall to what has filled', async () => {
    const { symbol, a, b } = await market()
    const ask = await placed(a, limit(symbol, 'sell', '3', '10.00'))
    await placed(b, limit(symbol, 'buy', '1', '10.00'))
    const res = await amend(a, ask.uid, { quantity: '1.00' })
    expect(res.status).toBe(422)
    expect(detail(res)).toEqual([
      {
        loc: 'body.quantity',
        type: 'value_error.number.not_gt',
        msg: 'ensure this value is greater than 1.00, the quantity already filled',
        ctx: { limit_value: '1.00' },
        input: '1.00',
      },
    ])
    expect((await amend(a, ask.uid, { quantity: '1.01' })).body).toMatchObject({ quantity: '1.01', filled_quantity: '1.00', status: 'partially_filled' })
  })

  it("checks the new values against the symbol's rules and the body like any other", async () => {
    const { symbol, a } = await market()
    const ask = await placed(a, limit(symbol, 'sell', '3', '10.00'))
    const rules = await amend(a, ask.uid, { quantity: '0.001', price: '10.001' })
    expect(rules.status).toBe(422)
    expect(detail(rules).map((d) => [d.loc, d.type])).toEqual([
      ['body.quantity', 'value_error.number.not_ge'],
      ['body.quantity', 'value_error.decimal.max_places'],
      ['body.price', 'value_error.number.not_multiple'],
      ['body.price', 'value_error.decimal.max_places'],
    ])
    expect(detail(await amend(a, ask.uid, {}))).toEqual([
      { loc: 'body', type: 'value_error.missing', msg: 'quantity, price or stop_price is required', ctx: undefined, input: {} },
    ])
    expect(detail(await amend(a, ask.uid, { quantity: 2, side: 'buy' })).map((d) => [d.loc, d.type])).toEqual([
      ['body.quantity', 'type_error.str'],
      ['body.side', 'value_error.extra'],
    ])
    expect(await order(a, ask.uid)).toMatchObject({ quantity: '3', price: '10.00' })
  })

  it('answers 404, 403 and 409 as cancelling does, and the same order for an amend that changes nothing', async () => {
    const { symbol, a, b } = await market()
    const ask = await placed(a, limit(symbol, 'sell', '3', '10.00'))
    expect((await amend(a, randomUUID(), { quantity: '1' })).status).toBe(404)
    expect((await amend(a, 'nope', { quantity: '1' })).status).toBe(404)
    const theirs = await amend(b, ask.uid, { quantity: '1' })
    expect(theirs.status).toBe(403)
    expect(theirs.body.message).toBe('Token belongs to different client')
    expect((await amend(admin, ask.uid, { quantity: '1' })).status).toBe(403)
    const same = await amend(a, ask.uid, { quantity: '3.00', price: '10' })
    expect(same.status).toBe(200)
    expect(same.body).toEqual(await order(a, ask.uid))
    await server.request('DELETE', `${ORDERS}/${ask.uid}`, { token: a.token })
    const gone = await amend(a, ask.uid, { quantity: '1' })
    expect(gone.status).toBe(409)
    expect(gone.body.message).toBe(`Order ${ask.uid} is cancelled; only open or partially filled orders can be amended`)
  })

  it('cancels a post-only order whose new price would trade', async () => {
    const { symbol, a, b } = await market()
    await placed(a, limit(symbol, 'sell', '1', '10.50'))
    const bid = await placed(b, limit(symbol, 'buy', '1', '10.00', { post_only: true }))
    const res = await amend(b, bid.uid, { price: '10.50' })
    expect(res.body).toMatchObject({ status: 'cancelled', cancel_reason: 'post_only', filled_quantity: '0', price: '10.50' })
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('reports the amend on the tenant stream as order.updated', async () => {
    const { symbol, a } = await market()
    const ask = await placed(a, limit(symbol, 'sell', '3', '10.00'))
    await amend(a, ask.uid, { quantity: '2' })
    const events = await readEvents(server.services.db, tenantStream(a.tenantId), 0, 1000)
    const updates = events.filter((e) => e.type === 'order.updated').map((e) => JSON.parse(e.payload).order)
    expect(updates.at(-1)).toMatchObject({ uid: ask.uid, quantity: '2', status: 'open' })
  })
})

describe('DELETE /api/exchange/v1/orders', () => {
  it("cancels the caller's resting orders by symbol and side, and only those", async () => {
    const { symbol, a, b } = await market()
    const other = await createMarket(server.services.db)
    const mine = [
      await placed(a, limit(symbol, 'buy', '1', '9.00')),
      await placed(a, limit(symbol, 'buy', '1', '9.10')),
      await placed(a, limit(symbol, 'sell', '1', '11.00')),
      await placed(a, limit(other, 'buy', '1', '9.00')),
    ]
    const theirs = await placed(b, limit(symbol, 'buy', '1', '9.00'))
    const buys = await server.request('DELETE', `${ORDERS}?symbol=${symbol.toLowerCase()}&side=buy`, { token: a.token })
    expect(buys.status).toBe(200)
    expect(buys.body.cancelled).toBe(2)
    expect(buys.body.items.map((o: { uid: string }) => o.uid)).toEqual([mine[0].uid, mine[1].uid])
    expect(buys.body.items.every((o: Record<string, unknown>) => o.status === 'cancelled' && o.cancel_reason === 'user')).toBe(true)

    const rest = await server.request('DELETE', ORDERS, { token: a.token })
    expect(rest.body.cancelled).toBe(2)
    expect(new Set(rest.body.items.map((o: { uid: string }) => o.uid))).toEqual(new Set([mine[2].uid, mine[3].uid]))
    expect(await server.request('DELETE', ORDERS, { token: a.token }).then((r) => r.body)).toEqual({ cancelled: 0, items: [] })
    expect(await order(b, theirs.uid)).toMatchObject({ status: 'open' })
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('lets admins cancel a named tenant’s orders, and no one else another tenant’s', async () => {
    const { symbol, a, b } = await market()
    const resting = await placed(a, limit(symbol, 'buy', '1', '9.00'))
    const missing = await server.request('DELETE', ORDERS, { token: admin.token })
    expect(missing.status).toBe(422)
    expect(missing.body.detail).toEqual([{ type: 'missing', loc: ['query', 'tenant_id'], msg: 'Field required' }])
    const forbidden = await server.request('DELETE', `${ORDERS}?tenant_id=${a.tenantId}`, { token: b.token })
    expect(forbidden.status).toBe(403)
    expect(await order(a, resting.uid)).toMatchObject({ status: 'open' })
    const byAdmin = await server.request('DELETE', `${ORDERS}?tenant_id=${a.tenantId}`, { token: admin.token })
    expect(byAdmin.body).toMatchObject({ cancelled: 1, items: [{ uid: resting.uid, status: 'cancelled' }] })
    const extra = await server.request('DELETE', `${ORDERS}?sides=buy`, { token: a.token })
    expect(extra.status).toBe(422)
    expect(extra.body.detail[0]).toMatchObject({ type: 'value_error.extra', loc: ['query', 'sides'] })
  })
})

describe('list filters take comma-separated lists', () => {
  it('lists open and partially filled orders in one call', async () => {
    const { symbol, a, b } = await market()
    const open = await placed(a, limit(symbol, 'sell', '2', '10.00'))
    const partial = await placed(a, limit(symbol, 'sell', '2', '9.00'))
    await placed(b, limit(symbol, 'buy', '1', '9.00'))
    const done = await placed(a, limit(symbol, 'sell', '1', '12.00'))
    await server.request('DELETE', `${ORDERS}/${done.uid}`, { token: a.token })
    const res = await server.request('GET', `${ORDERS}?symbol=${symbol}&status=open,partially_filled&order_by=price`, { token: a.token })
    expect(res.status).toBe(200)
    expect(res.body.items.map((o: { uid: string }) => o.uid)).toEqual([partial.uid, open.uid])
    expect(res.body.total).toBe(2)
    const both = await server.request('GET', `${ORDERS}?symbol=${symbol}&side=buy,sell`, { token: a.token })
    expect(both.body.total).toBe(3)
    const bad = await server.request('GET', `${ORDERS}?status=open,bogus`, { token: a.token })
    expect(bad.status).toBe(422)
    expect(bad.body.detail).toEqual([
      {
        type: 'type_error.enum',
        loc: ['query', 'status'],
        msg: "value is not a valid enumeration member; permitted: 'open', 'partially_filled', 'filled', 'cancelled', 'pending'",
        input: 'open,bogus',
        ctx: { enum_values: ['open', 'partially_filled', 'filled', 'cancelled', 'pending'] },
      },
    ])
  })
})

describe('GraphQL parity', () => {
  it('places with timeInForce and postOnly, amends, lists with list filters and cancels many, as REST does', async () => {
    const { symbol, a, b } = await market()
    await placed(a, limit(symbol, 'sell', '1', '10.00'))
    const create = `mutation ($input: CreateOrderInput!) { createOrder(input: $input) { order { uid status timeInForce postOnly cancelReason filledQuantity } } }`
    const ioc = await server.graphql<any, any>(
      create,
      { input: { symbol, side: 'buy', type: 'limit', quantity: '2', price: '10.00', timeInForce: 'ioc' } },
      { token: b.token },
    )
    expect(ioc.data.createOrder.order).toMatchObject({
      status: 'cancelled',
      timeInForce: 'ioc',
      postOnly: false,
      cancelReason: 'unfilled',
      filledQuantity: '1.00',
    })
    const maker = await server.graphql<any, any>(
      create,
      { input: { symbol, side: 'buy', type: 'limit', quantity: '2', price: '9.00', postOnly: true } },
      { token: b.token },
    )
    const uid = maker.data.createOrder.order.uid
    expect(maker.data.createOrder.order).toMatchObject({ status: 'open', timeInForce: 'gtc', postOnly: true })
    const refused = await server.graphql<any, any>(
      create,
      { input: { symbol, side: 'buy', type: 'market', quantity: '2', timeInForce: 'fok' } },
      { token: b.token },
    )
    expect(refused.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', detail: [{ loc: ['body', 'time_in_force'], type: 'type_error.enum' }] })

    const amended = await server.graphql<any, any>(
      `mutation ($uid: ID!, $input: AmendOrderInput!) { amendOrder(uid: $uid, input: $input) { uid quantity price status } }`,
      { uid, input: { quantity: '1.5' } },
      { token: b.token },
    )
    expect(amended.data.amendOrder).toEqual({ uid, quantity: '1.5', price: '9.00', status: 'open' })
    expect(await order(b, uid)).toMatchObject({ quantity: '1.5' })
    const below = await server.graphql<any, any>(
      `mutation ($uid: ID!, $input: AmendOrderInput!) { amendOrder(uid: $uid, input: $input) { uid } }`,
      { uid, input: { price: '9.001' } },
      { token: b.token },
    )
    expect(below.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', detail: [{ loc: ['body', 'price'] }, { loc: ['body', 'price'] }] })

    const listed = await server.graphql<any, any>(
      `query ($filter: OrderFilter) { orders(filter: $filter) { total items { uid } } }`,
      { filter: { symbol, status: ['open', 'partially_filled'] } },
      { token: b.token },
    )
    expect(listed.data.orders).toEqual({ total: 1, items: [{ uid }] })

    const cancelled = await server.graphql<any, any>(
      `mutation ($symbol: [String!], $side: OrderSide) { cancelOrders(symbol: $symbol, side: $side) { cancelled items { uid status cancelReason } } }`,
      { symbol, side: 'buy' },
      { token: b.token },
    )
    expect(cancelled.data.cancelOrders).toEqual({ cancelled: 1, items: [{ uid, status: 'cancelled', cancelReason: 'user' }] })
  })
})
