import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { checkAccounts } from '../src/modules/exchange/accounts/accounts.ts'
import { readEvents, tenantStream } from '../src/modules/exchange/events/events.repository.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDER_KEYS, ORDERS, placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

/**
 * Good-till-date orders (docs/matching.md, "Stop orders and good till date"). The service's clock
 * is the test's: expiry is driven by moving it and running the sweep, never by waiting.
 */

const API = '/api/exchange/v1'
const DAY_MS = 86_400_000

let server: TestServer
let now: number
beforeAll(async () => {
  server = await startTestServer()
})
afterEach(() => {
  server.services.matching.clock = Date.now
})
afterAll(async () => {
  await server?.close()
})

/** Freezes the service's clock at `at` (ms). */
function clockAt(at: number): void {
  now = at
  server.services.matching.clock = () => now
}

async function market() {
  const [a, b] = await Promise.all([createTestClient(server), createTestClient(server)])
  const symbol = await createMarket(server.services.db)
  return { symbol, a, b }
}

const iso = (ms: number) => new Date(ms).toISOString()
/** The API's rendering of a UTC instant: no zone, 6 fraction digits. */
const rendered = (ms: number) => `${iso(ms).slice(0, 23)}000`
const gtd = (symbol: string, side: 'buy' | 'sell', quantity: string, price: string, expireAt: string) => ({
  symbol,
  side,
  type: 'limit',
  quantity,
  price,
  time_in_force: 'gtd',
  expire_at: expireAt,
})

async function placed(client: TestClient, body: Record<string, unknown>) {
  const res = await placeOrder(server, client.token, body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}
const order = async (client: TestClient, uid: string) => (await server.request('GET', `${ORDERS}/${uid}`, { token: client.token })).body
const detail = (res: { body: { detail: { loc: (string | number)[]; type: string; msg: string; ctx?: unknown; input?: unknown }[] } }) =>
  res.body.detail.map((d) => ({ loc: d.loc.join('.'), type: d.type, msg: d.msg, ctx: d.ctx, input: d.input }))

describe('placing a gtd order', () => {
  it('answers 201 with time_in_force gtd and expire_at in UTC, from any zone', async () => {
    const { symbol, a } = await market()
    clockAt(Date.parse('2026-12-20T10:00:00Z'))
    const res = await placeOrder(server, a.token, gtd(symbol, 'buy', '1', '10.00', '2026-12-20T14:00:30.25+03:30'))
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(ORDER_KEYS)
    expect(res.body).toMatchObject({
      type: 'limit',
      status: 'open',
      time_in_force: 'gtd',
      expire_at: '2026-12-20T10:30:30.250000',
      stop_price: null,
      cancel_reason: null,
    })
  })

  it('refuses gtd without expire_at, an expire_at in the past or beyond 90 days, and expire_at without gtd', async () => {
    const { symbol, a } = await market()
    clockAt(Date.parse('2026-12-20T10:00:00Z'))
    const body = { symbol, side: 'buy', type: 'limit', quantity: '1', price: '10.00' }
    const missing = await placeOrder(server, a.token, { ...body, time_in_force: 'gtd' })
    expect(missing.status).toBe(422)
    expect(detail(missing)).toEqual([{ loc: 'body.expire_at', type: 'missing', msg: 'Field required', ctx: undefined, input: undefined }])
    const past = await placeOrder(server, a.token, { ...body, time_in_force: 'gtd', expire_at: '2026-12-20T10:00:00Z' })
    expect(detail(past)).toEqual([
      {
        loc: 'body.expire_at',
        type: 'value_error.datetime.not_in_future',
        msg: 'ensure this value is in the future',
        ctx: undefined,
        input: '2026-12-20T10:00:00.000000Z',
      },
    ])
    const far = await placeOrder(server, a.token, { ...body, time_in_force: 'gtd', expire_at: iso(now + 90 * DAY_MS + 1000) })
    expect(detail(far)).toEqual([
      {
        loc: 'body.expire_at',
        type: 'value_error.datetime.not_le',
        msg: 'ensure this value is at most 90 days ahead (2027-03-20T10:00:00.000Z)',
        ctx: { limit_value: '2027-03-20T10:00:00.000Z' },
        input: '2027-03-20T10:00:01.000000Z',
      },
    ])
    expect((await placeOrder(server, a.token, { ...body, time_in_force: 'gtd', expire_at: iso(now + 90 * DAY_MS) })).status).toBe(201)
    const notGtd = await placeOrder(server, a.token, { ...body, expire_at: iso(now + 1000) })
    expect(detail(notGtd)).toEqual([
      { loc: 'body.expire_at', type: 'value_error.extra', msg: 'expire_at applies only to gtd orders', ctx: undefined, input: '2026-12-20T10:00:01.000000Z' },
    ])
    for (const text of ['2026-12-21T10:00:00', 'tomorrow', '2026-13-01T00:00:00Z']) {
      const bad = await placeOrder(server, a.token, { ...body, time_in_force: 'gtd', expire_at: text })
      expect(detail(bad)).toEqual([{ loc: 'body.expire_at', type: 'value_error.datetime', msg: 'invalid datetime format', ctx: undefined, input: text }])
    }
    const marketGtd = await placeOrder(server, a.token, {
      symbol,
      side: 'buy',
      type: 'market',
      quantity: '1',
      time_in_force: 'gtd',
      expire_at: iso(now + 1000),
    })
    expect(detail(marketGtd).map((d) => [d.loc, d.type])).toEqual([['body.time_in_force', 'type_error.enum']])
    const validate = await server.request('POST', `${ORDERS}/validate`, { token: a.token, body: { ...body, time_in_force: 'gtd', expire_at: iso(now - 1) } })
    expect(validate.status).toBe(422)
    expect(detail(validate).map((d) => d.type)).toEqual(['value_error.datetime.not_in_future'])
  })
})

describe('expiry', () => {
  it('cancels a gtd order expired once the clock reaches expire_at (not a millisecond before) and releases its hold', async () => {
    const { symbol, a } = await market()
    const quote = symbol.split('-')[1]!
    const t0 = Date.parse('2026-12-20T10:00:00Z')
    clockAt(t0)
    const bid = await placed(a, gtd(symbol, 'buy', '1', '10.00', iso(t0 + 60_000)))
    const plain = await placed(a, { symbol, side: 'buy', type: 'limit', quantity: '1', price: '9.00' })
    clockAt(t0 + 59_999)
    await server.services.matching.expireDue()
    expect(await order(a, bid.uid)).toMatchObject({ status: 'open', cancel_reason: null })
    clockAt(t0 + 60_000)
    await server.services.matching.expireDue()
    expect(await order(a, bid.uid)).toMatchObject({ status: 'cancelled', cancel_reason: 'expired', expire_at: rendered(t0 + 60_000) })
    expect(await order(a, plain.uid)).toMatchObject({ status: 'open' })
    expect((await server.request('GET', `${API}/accounts/${quote}`, { token: a.token })).body.hold).toBe('9.00')
    const events = (await readEvents(server.services.db, tenantStream(a.tenantId), 0, 100)).map((e) => ({ type: e.type, body: JSON.parse(e.payload) }))
    expect(events.filter((e) => e.body.order?.uid === bid.uid).map((e) => [e.type, e.body.order.status, e.body.order.cancel_reason])).toEqual([
      ['order.created', 'open', null],
      ['order.updated', 'cancelled', 'expired'],
    ])
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('an order arriving after expire_at never trades with the expired order, even before the sweep', async () => {
    const { symbol, a, b } = await market()
    const t0 = Date.parse('2026-12-20T10:00:00Z')
    clockAt(t0)
    const ask = await placed(a, gtd(symbol, 'sell', '1', '10.00', iso(t0 + 1000)))
    clockAt(t0 + 1000)
    // The pass of the buy expires what is due first, whether or not a sweep ran.
    const buy = await placed(b, { symbol, side: 'buy', type: 'limit', quantity: '1', price: '10.00' })
    expect(buy).toMatchObject({ status: 'open', filled_quantity: '0' })
    expect(await order(a, ask.uid)).toMatchObject({ status: 'cancelled', cancel_reason: 'expired' })
  })

  it('expires a partly filled gtd order and a pending gtd stop alike', async () => {
    const { symbol, a, b } = await market()
    const t0 = Date.parse('2026-12-20T10:00:00Z')
    clockAt(t0)
    const ask = await placed(a, gtd(symbol, 'sell', '2', '10.00', iso(t0 + 5000)))
    await placed(b, { symbol, side: 'buy', type: 'limit', quantity: '1', price: '10.00' })
    const stop = await placed(b, { ...gtd(symbol, 'buy', '1', '12.00', iso(t0 + 5000)), type: 'stop_limit', stop_price: '11.00' })
    expect(stop).toMatchObject({ status: 'pending', time_in_force: 'gtd' })
    clockAt(t0 + 5000)
    await server.services.matching.expireDue()
    expect(await order(a, ask.uid)).toMatchObject({ status: 'cancelled', cancel_reason: 'expired', filled_quantity: '1.00' })
    expect(await order(b, stop.uid)).toMatchObject({ status: 'cancelled', cancel_reason: 'expired' })
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('expires orders a restarted process has not matched yet: the sweep reads the database', async () => {
    const { a } = await market()
    const t0 = Date.parse('2026-12-20T10:00:00Z')
    const restarting = await startTestServer({}, server.database)
    restarting.services.matching.clock = () => t0
    const symbol = await createMarket(restarting.services.db)
    const bid = await placeOrder(restarting, a.token, gtd(symbol, 'buy', '1', '10.00', iso(t0 + 1000)))
    expect(bid.status).toBe(201)
    await restarting.stop()
    const again = await startTestServer({}, server.database)
    try {
      again.services.matching.clock = () => t0 + 1000
      await again.services.matching.expireDue()
      expect((await again.request('GET', `${ORDERS}/${bid.body.uid}`, { token: a.token })).body).toMatchObject({
        status: 'cancelled',
        cancel_reason: 'expired',
      })
    } finally {
      await again.stop()
    }
  })
})

describe('GraphQL parity', () => {
  it('places a gtd order with expireAt and refuses a past one with the REST detail', async () => {
    const { symbol, a } = await market()
    clockAt(Date.parse('2026-12-20T10:00:00Z'))
    const create = `mutation ($input: CreateOrderInput!) { createOrder(input: $input) { order { uid timeInForce expireAt status } } }`
    const input = { symbol, side: 'buy', type: 'limit', quantity: '1', price: '10.00', timeInForce: 'gtd' }
    const made = await server.graphql<any, any>(create, { input: { ...input, expireAt: '2026-12-21T10:00:00Z' } }, { token: a.token })
    expect(made.data.createOrder.order).toMatchObject({ timeInForce: 'gtd', expireAt: '2026-12-21T10:00:00.000000', status: 'open' })
    expect(await order(a, made.data.createOrder.order.uid)).toMatchObject({ time_in_force: 'gtd', expire_at: '2026-12-21T10:00:00.000000' })
    const refused = await server.graphql<any, any>(create, { input: { ...input, expireAt: '2026-12-19T10:00:00Z' } }, { token: a.token })
    const rest = await placeOrder(server, a.token, gtd(symbol, 'buy', '1', '10.00', '2026-12-19T10:00:00Z'))
    expect(rest.status).toBe(422)
    expect(refused.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', detail: rest.body.detail })
  })
})
