import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { checkAccounts } from '../src/modules/exchange/accounts/accounts.ts'
import { readEvents, tenantStream } from '../src/modules/exchange/events/events.repository.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDER_KEYS, ORDERS, placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

/** Stop orders (docs/matching.md, "Stop orders and good till date"; docs/api.md, "Stop orders"). */

const API = '/api/exchange/v1'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

/** A market of its own (prices and quantities to 2 places, tick 0.01) and three funded banks. */
async function market() {
  const [a, b, c] = await Promise.all([createTestClient(server), createTestClient(server), createTestClient(server)])
  const symbol = await createMarket(server.services.db)
  return { symbol, a, b, c }
}

const limit = (symbol: string, side: 'buy' | 'sell', quantity: string, price: string) => ({ symbol, side, type: 'limit', quantity, price })
const stopLimit = (symbol: string, side: 'buy' | 'sell', quantity: string, stop: string, price: string) => ({
  symbol,
  side,
  type: 'stop_limit',
  quantity,
  price,
  stop_price: stop,
})
const stopMarket = (symbol: string, side: 'buy' | 'sell', quantity: string, stop: string) => ({ symbol, side, type: 'stop_market', quantity, stop_price: stop })

async function placed(client: TestClient, body: Record<string, unknown>) {
  const res = await placeOrder(server, client.token, body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}
const order = async (client: TestClient, uid: string) => (await server.request('GET', `${ORDERS}/${uid}`, { token: client.token })).body
const amend = (client: TestClient, uid: string, body: unknown) => server.request('PATCH', `${ORDERS}/${uid}`, { token: client.token, body })
const storedHold = async (uid: string) =>
  (await server.services.db.selectFrom('orders').select(['hold', 'hold_currency']).where('uid', '=', uid).executeTakeFirstOrThrow()) as {
    hold: string
    hold_currency: string
  }
const accountHold = async (client: TestClient, currency: string) =>
  (await server.request('GET', `${API}/accounts/${currency}`, { token: client.token })).body.hold
const bids = async (symbol: string, client: TestClient) =>
  (await server.request('GET', `${API}/symbols/${symbol}/book`, { token: client.token })).body.bids as { price: string; quantity: string }[]
const detail = (res: { body: { detail: { loc: (string | number)[]; type: string; msg: string; ctx?: unknown }[] } }) =>
  res.body.detail.map((d) => ({ loc: d.loc.join('.'), type: d.type, msg: d.msg, ctx: d.ctx }))
const clean = async () => expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])

describe('placing a stop order', () => {
  it('answers 201 pending with the full record, holds what its limit order would, and rests nowhere in the book', async () => {
    const { symbol, a, c } = await market()
    const quote = symbol.split('-')[1]!
    const res = await placeOrder(server, c.token, { ...stopLimit(symbol, 'buy', '2', '10.50', '11.00'), client_order_id: 'stop-1' })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(ORDER_KEYS)
    expect(res.body).toEqual({
      uid: expect.stringMatching(UUID),
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
      is_deleted: false,
      meta_data: null,
      user_id: c.clientId,
      tenant_id: c.tenantId,
      client_order_id: 'stop-1',
      symbol,
      side: 'buy',
      type: 'stop_limit',
      quantity: '2',
      price: '11.00',
      status: 'pending',
      filled_quantity: '0',
      average_price: null,
      cancel_reason: null,
      time_in_force: 'gtc',
      post_only: false,
      stop_price: '10.50',
      expire_at: null,
    })
    const twin = await placed(a, limit(symbol, 'buy', '2', '11.00'))
    expect(await storedHold(res.body.uid)).toEqual(await storedHold(twin.uid))
    expect(await storedHold(res.body.uid)).toEqual({ hold: '22', hold_currency: quote })
    expect(await accountHold(c, quote)).toBe('22.00')
    expect((await bids(symbol, c)).map((l) => [l.price, l.quantity])).toEqual([['11.00', '2.00']])
    const sell = await placed(c, stopMarket(symbol, 'sell', '3', '9.00'))
    expect(sell).toMatchObject({ type: 'stop_market', price: null, stop_price: '9.00', status: 'pending', time_in_force: 'ioc' })
    expect(await storedHold(sell.uid)).toEqual({ hold: '3', hold_currency: symbol.split('-')[0] })
    const pending = await server.request('GET', `${ORDERS}?symbol=${symbol}&status=pending`, { token: c.token })
    expect(pending.body.items.map((o: { uid: string }) => o.uid).sort()).toEqual([res.body.uid, sell.uid].sort())
    await clean()
  })

  it('refuses a missing or off-tick stop_price, a stop_price on other orders and a price on stop-market orders', async () => {
    const { symbol, c } = await market()
    const missing = await placeOrder(server, c.token, { symbol, side: 'buy', type: 'stop_limit', quantity: '1', price: '10.00' })
    expect(missing.status).toBe(422)
    expect(detail(missing)).toEqual([{ loc: 'body.stop_price', type: 'missing', msg: 'Field required', ctx: undefined }])
    const offTick = await placeOrder(server, c.token, stopLimit(symbol, 'buy', '1', '10.005', '10.00'))
    expect(detail(offTick)).toEqual([
      { loc: 'body.stop_price', type: 'value_error.number.not_multiple', msg: 'ensure this value is a multiple of 0.01', ctx: { multiple_of: '0.01' } },
      {
        loc: 'body.stop_price',
        type: 'value_error.decimal.max_places',
        msg: 'ensure that there are no more than 2 decimal places',
        ctx: { decimal_places: 2 },
      },
    ])
    const zero = await placeOrder(server, c.token, stopMarket(symbol, 'sell', '1', '0'))
    expect(detail(zero)).toEqual([
      { loc: 'body.stop_price', type: 'value_error.number.not_gt', msg: 'ensure this value is greater than 0', ctx: { limit_value: '0' } },
    ])
    const onLimit = await placeOrder(server, c.token, { ...limit(symbol, 'buy', '1', '10.00'), stop_price: '10.00' })
    expect(detail(onLimit)).toEqual([{ loc: 'body.stop_price', type: 'value_error.extra', msg: 'only stop orders take a stop_price', ctx: undefined }])
    const priced = await placeOrder(server, c.token, { ...stopMarket(symbol, 'buy', '1', '10.00'), price: '10.00' })
    expect(detail(priced)).toEqual([{ loc: 'body.price', type: 'value_error.extra', msg: 'stop-market orders take no price', ctx: undefined }])
    const gtc = await placeOrder(server, c.token, { ...stopMarket(symbol, 'buy', '1', '10.00'), time_in_force: 'gtc' })
    expect(detail(gtc)).toEqual([
      { loc: 'body.time_in_force', type: 'type_error.enum', msg: "value is not a valid enumeration member; permitted: 'ioc'", ctx: { enum_values: ['ioc'] } },
    ])
    const postOnly = await placeOrder(server, c.token, { ...stopLimit(symbol, 'buy', '1', '10.00', '10.00'), post_only: true })
    expect(detail(postOnly)).toEqual([
      { loc: 'body.post_only', type: 'value_error.post_only', msg: 'post_only applies only to limit orders that rest (gtc or gtd)', ctx: undefined },
    ])
    const validate = await server.request('POST', `${ORDERS}/validate`, { token: c.token, body: stopLimit(symbol, 'buy', '1', '10.005', '10.00') })
    expect(validate.status).toBe(422)
    expect(validate.body.detail).toEqual(offTick.body.detail)
    const valid = await server.request('POST', `${ORDERS}/validate`, { token: c.token, body: stopLimit(symbol, 'buy', '1', '10.00', '10.00') })
    expect(valid.body).toEqual({ valid: true })
    expect((await server.request('GET', `${ORDERS}?symbol=${symbol}`, { token: c.token })).body.total).toBe(0)
  })
})

describe('triggering', () => {
  it('a buy triggers on a trade at its stop price, not a tick below; it trades in the pass of the trade', async () => {
    const { symbol, a, b, c } = await market()
    const stop = await placed(c, stopLimit(symbol, 'buy', '1', '10.00', '12.00'))
    await placed(a, limit(symbol, 'sell', '1', '9.99'))
    await placed(b, limit(symbol, 'buy', '1', '9.99'))
    expect(await order(c, stop.uid)).toMatchObject({ status: 'pending' })
    await placed(a, limit(symbol, 'sell', '1', '10.00'))
    const ask = await placed(a, limit(symbol, 'sell', '1', '11.50'))
    const trigger = await placed(b, limit(symbol, 'buy', '1', '10.00'))
    expect(trigger).toMatchObject({ status: 'filled', average_price: '10.00' })
    // Answered after the pass: the stop has already joined the book and taken the ask at 11.50.
    expect(await order(c, stop.uid)).toMatchObject({ status: 'filled', type: 'stop_limit', filled_quantity: '1.00', average_price: '11.50' })
    expect(await order(a, ask.uid)).toMatchObject({ status: 'filled' })
    await clean()
  })

  it('a sell triggers on a trade at or below its stop price, and a triggered stop-market order sweeps', async () => {
    const { symbol, a, b, c } = await market()
    const stop = await placed(c, stopMarket(symbol, 'sell', '2', '10.00'))
    await placed(b, limit(symbol, 'buy', '1', '10.01'))
    await placed(a, limit(symbol, 'sell', '1', '10.01'))
    expect(await order(c, stop.uid)).toMatchObject({ status: 'pending' })
    await placed(b, limit(symbol, 'buy', '1', '9.50'))
    await placed(b, limit(symbol, 'buy', '1', '9.40'))
    await placed(b, limit(symbol, 'buy', '1', '10.00'))
    await placed(a, { symbol, side: 'sell', type: 'market', quantity: '1' })
    expect(await order(c, stop.uid)).toMatchObject({ status: 'filled', filled_quantity: '2.00', average_price: '9.45' })
    await clean()
  })

  it('orders stops triggered together by stop price (buys lowest first, sells highest first), then acceptance', async () => {
    const { symbol, a, b, c } = await market()
    const first = await placed(c, stopLimit(symbol, 'buy', '1', '10.00', '20.00'))
    const lower = await placed(c, stopLimit(symbol, 'buy', '1', '9.00', '20.00'))
    const second = await placed(c, stopLimit(symbol, 'buy', '1', '10.00', '20.00'))
    for (const price of ['10.00', '11.00', '12.00', '13.00']) await placed(a, limit(symbol, 'sell', '1', price))
    await placed(b, limit(symbol, 'buy', '1', '10.00'))
    expect((await order(c, lower.uid)).average_price).toBe('11.00')
    expect((await order(c, first.uid)).average_price).toBe('12.00')
    expect((await order(c, second.uid)).average_price).toBe('13.00')

    const sells = await market()
    const s1 = await placed(sells.c, stopMarket(sells.symbol, 'sell', '1', '10.00'))
    const high = await placed(sells.c, stopMarket(sells.symbol, 'sell', '1', '11.00'))
    const s2 = await placed(sells.c, stopMarket(sells.symbol, 'sell', '1', '10.00'))
    for (const price of ['10.00', '9.00', '8.00', '7.00']) await placed(sells.b, limit(sells.symbol, 'buy', '1', price))
    await placed(sells.a, limit(sells.symbol, 'sell', '1', '10.00'))
    expect((await order(sells.c, high.uid)).average_price).toBe('9.00')
    expect((await order(sells.c, s1.uid)).average_price).toBe('8.00')
    expect((await order(sells.c, s2.uid)).average_price).toBe('7.00')
    await clean()
  })

  it('a triggered stop that trades triggers the next stop in the same pass', async () => {
    const { symbol, a, b, c } = await market()
    const near = await placed(c, stopLimit(symbol, 'buy', '1', '10.00', '11.00'))
    const far = await placed(b, stopLimit(symbol, 'buy', '1', '11.00', '12.00'))
    await placed(a, limit(symbol, 'sell', '1', '10.00'))
    await placed(a, limit(symbol, 'sell', '1', '11.00'))
    await placed(a, limit(symbol, 'sell', '1', '12.00'))
    await placed(b, limit(symbol, 'buy', '1', '10.00'))
    expect(await order(c, near.uid)).toMatchObject({ status: 'filled', average_price: '11.00' })
    expect(await order(b, far.uid)).toMatchObject({ status: 'filled', average_price: '12.00' })
  })

  it('says pending and triggered on the tenant stream: order.created pending, order.updated open, then its fills', async () => {
    const { symbol, a, b, c } = await market()
    const stop = await placed(c, stopLimit(symbol, 'buy', '1', '10.00', '10.00'))
    await placed(a, limit(symbol, 'sell', '1', '10.00'))
    await placed(b, limit(symbol, 'buy', '1', '10.00'))
    const events = (await readEvents(server.services.db, tenantStream(c.tenantId), 0, 100))
      .map((e) => ({ type: e.type, body: JSON.parse(e.payload) }))
      .filter((e) => e.body.order?.uid === stop.uid || e.body.fill?.order_uid === stop.uid)
    expect(events.map((e) => [e.type, e.body.order?.status ?? null])).toEqual([
      ['order.created', 'pending'],
      ['order.updated', 'open'],
    ])
    // Nothing rests at 10.00 once b's buy took the ask: the triggered stop limit rests on the bid side.
    expect((await bids(symbol, c)).map((l) => [l.price, l.quantity])).toEqual([['10.00', '1.00']])
  })
})

describe('cancel and amend of pending stops', () => {
  it('cancels a pending stop and releases its hold', async () => {
    const { symbol, c } = await market()
    const quote = symbol.split('-')[1]!
    const stop = await placed(c, stopLimit(symbol, 'buy', '1', '10.00', '10.00'))
    const res = await server.request('DELETE', `${ORDERS}/${stop.uid}`, { token: c.token })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ uid: stop.uid, status: 'cancelled', cancel_reason: 'user', stop_price: '10.00' })
    expect(await accountHold(c, quote)).toBe('0.00')
    const many = await placed(c, stopMarket(symbol, 'sell', '1', '9.00'))
    const all = await server.request('DELETE', `${ORDERS}?symbol=${symbol}`, { token: c.token })
    expect(all.body).toMatchObject({ cancelled: 1, items: [{ uid: many.uid, status: 'cancelled', cancel_reason: 'user' }] })
    await clean()
  })

  it('amends stop_price, quantity and price of a pending stop; a moved stop triggers at its new price only', async () => {
    const { symbol, a, b, c } = await market()
    const quote = symbol.split('-')[1]!
    const stop = await placed(c, stopLimit(symbol, 'buy', '1', '10.00', '12.00'))
    const moved = await amend(c, stop.uid, { stop_price: '11.00', quantity: '2', price: '13.00' })
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({ uid: stop.uid, status: 'pending', stop_price: '11.00', quantity: '2', price: '13.00' })
    expect(await accountHold(c, quote)).toBe('26.00')
    const offTick = await amend(c, stop.uid, { stop_price: '11.001' })
    expect(offTick.status).toBe(422)
    expect(detail(offTick).map((d) => [d.loc, d.type])).toEqual([
      ['body.stop_price', 'value_error.number.not_multiple'],
      ['body.stop_price', 'value_error.decimal.max_places'],
    ])
    await placed(a, limit(symbol, 'sell', '1', '10.00'))
    await placed(b, limit(symbol, 'buy', '1', '10.00'))
    expect(await order(c, stop.uid)).toMatchObject({ status: 'pending' })
    await placed(a, limit(symbol, 'sell', '1', '11.00'))
    await placed(b, limit(symbol, 'buy', '1', '11.00'))
    expect(await order(c, stop.uid)).toMatchObject({ status: 'open', stop_price: '11.00' })
    const late = await amend(c, stop.uid, { stop_price: '12.00' })
    expect(late.status).toBe(422)
    expect(detail(late)).toEqual([
      { loc: 'body.stop_price', type: 'value_error.extra', msg: 'the stop order has triggered: its stop_price can no longer change', ctx: undefined },
    ])
    const ask = await placed(a, limit(symbol, 'sell', '1', '14.00'))
    const notStop = await amend(a, ask.uid, { stop_price: '12.00' })
    expect(detail(notStop)).toEqual([{ loc: 'body.stop_price', type: 'value_error.extra', msg: 'only stop orders have a stop_price', ctx: undefined }])
    await clean()
  })
})

describe('restart', () => {
  it('keeps pending stops across a restart: the warm-up reads them, and a trade triggers them', async () => {
    const { a, b, c } = await market()
    const restarting = await startTestServer({}, server.database)
    const symbol = await createMarket(restarting.services.db)
    const stop = await placeOrder(restarting, c.token, stopLimit(symbol, 'buy', '1', '10.00', '10.50'))
    expect(stop.body.status).toBe('pending')
    await restarting.stop()
    const again = await startTestServer({}, server.database)
    try {
      expect((await placeOrder(again, a.token, limit(symbol, 'sell', '2', '10.00'))).status).toBe(201)
      expect((await placeOrder(again, b.token, limit(symbol, 'buy', '1', '10.00'))).body).toMatchObject({ status: 'filled' })
      const after = await again.request('GET', `${ORDERS}/${stop.body.uid}`, { token: c.token })
      expect(after.body).toMatchObject({ status: 'filled', average_price: '10.00' })
    } finally {
      await again.stop()
    }
  })
})

describe('GraphQL parity', () => {
  it('places, amends and cancels a stop as REST does, with the same record', async () => {
    const { symbol, c } = await market()
    const fields = 'uid type status price stopPrice quantity timeInForce expireAt cancelReason'
    const created = await server.graphql<any, any>(
      `mutation ($input: CreateOrderInput!) { createOrder(input: $input) { order { ${fields} } } }`,
      { input: { symbol, side: 'buy', type: 'stop_limit', quantity: '1', price: '10.00', stopPrice: '9.50' } },
      { token: c.token },
    )
    const gqlOrder = created.data.createOrder.order
    expect(gqlOrder).toEqual({
      uid: expect.stringMatching(UUID),
      type: 'stop_limit',
      status: 'pending',
      price: '10.00',
      stopPrice: '9.50',
      quantity: '1',
      timeInForce: 'gtc',
      expireAt: null,
      cancelReason: null,
    })
    const rest = await order(c, gqlOrder.uid)
    expect(rest).toMatchObject({ type: 'stop_limit', status: 'pending', price: '10.00', stop_price: '9.50', quantity: '1' })
    const amended = await server.graphql<any, any>(
      `mutation ($uid: ID!, $input: AmendOrderInput!) { amendOrder(uid: $uid, input: $input) { ${fields} } }`,
      { uid: gqlOrder.uid, input: { stopPrice: '9.60' } },
      { token: c.token },
    )
    expect(amended.data.amendOrder).toMatchObject({ status: 'pending', stopPrice: '9.60' })
    const refused = await server.graphql<any, any>(
      `mutation ($input: CreateOrderInput!) { createOrder(input: $input) { order { uid } } }`,
      { input: { symbol, side: 'buy', type: 'stop_limit', quantity: '1', price: '10.00', stopPrice: '10.005' } },
      { token: c.token },
    )
    const restRefused = await placeOrder(server, c.token, stopLimit(symbol, 'buy', '1', '10.005', '10.00'))
    expect(refused.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', detail: restRefused.body.detail })
    const cancelled = await server.graphql<any, any>(`mutation ($uid: ID!) { cancelOrder(uid: $uid) { ${fields} } }`, { uid: gqlOrder.uid }, { token: c.token })
    expect(cancelled.data.cancelOrder).toMatchObject({ status: 'cancelled', cancelReason: 'user', stopPrice: '9.60' })
    const listed = await server.graphql<any, any>(
      `query ($filter: OrderFilter) { orders(filter: $filter) { total items { uid status } } }`,
      { filter: { symbol, status: ['pending', 'cancelled'] } },
      { token: c.token },
    )
    expect(listed.data.orders).toEqual({ total: 1, items: [{ uid: gqlOrder.uid, status: 'cancelled' }] })
  })
})
