import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { checkAccounts } from '../src/modules/exchange/accounts/accounts.ts'
import { setSymbolActive } from '../src/modules/exchange/symbols/symbol-admin.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDERS, placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

// Sharp edges of order ids and cancel-many (docs/api.md, "Order lifecycle").

let server: TestServer
let admin: TestClient
let a: TestClient
let b: TestClient
beforeAll(async () => {
  server = await startTestServer()
  ;[admin, a, b] = await Promise.all([
    createTestClient(server, { roles: ['admin'], scopes: ['*:*'], funded: false }),
    createTestClient(server),
    createTestClient(server),
  ])
})
afterAll(async () => {
  await server?.close()
})

const bid = (symbol: string, price = '9.00') => ({ symbol, side: 'buy', type: 'limit', quantity: '1', price })

async function placed(client: TestClient, body: Record<string, unknown>): Promise<{ uid: string; status: string }> {
  const res = await placeOrder(server, client.token, body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

const statusOf = async (client: TestClient, uid: string) => (await server.request('GET', `${ORDERS}/${uid}`, { token: client.token })).body.status
const cancelMany = (client: TestClient, query: string) => server.request('DELETE', `${ORDERS}?${query}`, { token: client.token })
const uids = (items: { uid: string }[] | undefined) => items?.map((o) => o.uid)

describe('an order uid in upper case', () => {
  it('names the same order for GET, PATCH and DELETE', async () => {
    const symbol = await createMarket(server.services.db)
    const order = await placed(a, bid(symbol))
    const upper = order.uid.toUpperCase()
    const read = await server.request('GET', `${ORDERS}/${upper}`, { token: a.token })
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ uid: order.uid, status: 'open' })
    const amended = await server.request('PATCH', `${ORDERS}/${upper}`, { token: a.token, body: { quantity: '0.5' } })
    expect([amended.status, amended.body.uid, amended.body.quantity]).toEqual([200, order.uid, '0.5'])
    const cancelled = await server.request('DELETE', `${ORDERS}/${upper}`, { token: a.token })
    expect([cancelled.status, cancelled.body.uid, cancelled.body.status, cancelled.body.cancel_reason]).toEqual([200, order.uid, 'cancelled', 'user'])
    const again = await server.request('DELETE', `${ORDERS}/${upper}`, { token: a.token })
    expect(again.status).toBe(409)
    expect(again.body.message).toBe(`Order ${order.uid} is cancelled; only open or partially filled orders can be cancelled`)
    // Not a UUID in any case: no order, on every method.
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await server.request(method, `${ORDERS}/${upper}x`, { token: a.token, body: method === 'PATCH' ? { quantity: '1' } : undefined })
      expect([method, res.status]).toEqual([method, 404])
    }
    expect((await checkAccounts(server.services.db)).discrepancies).toEqual([])
  })

  it('names the same order for order, amendOrder and cancelOrder', async () => {
    const symbol = await createMarket(server.services.db)
    const order = await placed(a, bid(symbol))
    const uid = order.uid.toUpperCase()
    const read = await server.graphql<any, any>(`query ($uid: ID!) { order(uid: $uid) { uid status } }`, { uid }, { token: a.token })
    expect(read.data.order).toEqual({ uid: order.uid, status: 'open' })
    const amended = await server.graphql<any, any>(
      `mutation ($uid: ID!) { amendOrder(uid: $uid, input: { price: "9.10" }) { uid price } }`,
      { uid },
      { token: a.token },
    )
    expect(amended.errors).toBeUndefined()
    expect(amended.data.amendOrder).toEqual({ uid: order.uid, price: '9.10' })
    const cancelled = await server.graphql<any, any>(`mutation ($uid: ID!) { cancelOrder(uid: $uid) { uid status } }`, { uid }, { token: a.token })
    expect(cancelled.errors).toBeUndefined()
    expect(cancelled.data.cancelOrder).toEqual({ uid: order.uid, status: 'cancelled' })
  })

  it('as a tenant_id names the same tenant when cancelling many', async () => {
    const symbol = await createMarket(server.services.db)
    const mine = await placed(a, bid(symbol))
    const own = await cancelMany(a, `tenant_id=${a.tenantId.toUpperCase()}&symbol=${symbol}`)
    expect([own.status, own.body.cancelled, uids(own.body.items)]).toEqual([200, 1, [mine.uid]])
    const theirs = await placed(a, bid(symbol))
    const byAdmin = await cancelMany(admin, `tenant_id=${a.tenantId.toUpperCase()}`)
    expect([byAdmin.status, byAdmin.body.cancelled, uids(byAdmin.body.items)]).toEqual([200, 1, [theirs.uid]])
  })
})

describe('DELETE /api/exchange/v1/orders?symbol=', () => {
  it('takes a comma-separated list of symbols, in any case, and cancels on those only', async () => {
    const [one, two, three] = await Promise.all([1, 2, 3].map(() => createMarket(server.services.db)))
    const onOne = await placed(a, bid(one!))
    const onTwo = await placed(a, bid(two!))
    const onThree = await placed(a, bid(three!))
    const res = await cancelMany(a, `symbol=${one!.toLowerCase()},${two},${one}`)
    expect(res.status).toBe(200)
    expect(res.body.cancelled).toBe(2)
    expect(new Set(uids(res.body.items))).toEqual(new Set([onOne.uid, onTwo.uid]))
    expect(await statusOf(a, onThree.uid)).toBe('open')
  })

  it('refuses an unknown symbol as placing an order does, cancelling nothing; an inactive one is cancelled', async () => {
    const symbol = await createMarket(server.services.db)
    const order = await placed(a, bid(symbol))
    const unknown = await cancelMany(a, 'symbol=NOPE-USDT')
    expect(unknown.status).toBe(422)
    expect(unknown.body.detail).toEqual([{ type: 'value_error.symbol', loc: ['query', 'symbol'], msg: 'unknown symbol NOPE-USDT', input: 'NOPE-USDT' }])
    const mixed = await cancelMany(a, `symbol=${symbol},nope-usdt,${symbol}-X`)
    expect(mixed.status).toBe(422)
    expect(mixed.body.detail).toEqual([
      { type: 'value_error.symbol', loc: ['query', 'symbol'], msg: 'unknown symbol NOPE-USDT', input: 'NOPE-USDT' },
      { type: 'value_error.symbol', loc: ['query', 'symbol'], msg: `unknown symbol ${symbol}-X`, input: `${symbol}-X` },
    ])
    const empty = await cancelMany(a, `symbol=${symbol},`)
    expect(empty.status).toBe(422)
    expect(empty.body.detail).toEqual([{ type: 'value_error.symbol', loc: ['query', 'symbol'], msg: 'the list names an empty symbol', input: `${symbol},` }])
    expect(await statusOf(a, order.uid)).toBe('open')

    // Placement refuses an inactive symbol; its resting orders can still be pulled (as one by one).
    await setSymbolActive(server.services.db, symbol, false)
    const inactive = await cancelMany(a, `symbol=${symbol}`)
    expect([inactive.status, inactive.body.cancelled, uids(inactive.body.items)]).toEqual([200, 1, [order.uid]])
  })

  it('bounds the list before splitting it', async () => {
    const many = await cancelMany(a, `symbol=${Array.from({ length: 21 }, (_, i) => `S${i}`).join(',')}`)
    expect(many.status).toBe(422)
    expect(many.body.detail).toEqual([
      {
        type: 'value_error.list.max_items',
        loc: ['query', 'symbol'],
        msg: 'ensure this value has at most 20 items',
        input: Array.from({ length: 21 }, (_, i) => `S${i}`).join(','),
        ctx: { limit_value: 20 },
      },
    ])
    const long = await cancelMany(a, `symbol=${'A,'.repeat(400)}`)
    expect(long.status).toBe(422)
    expect(long.body.detail[0]).toMatchObject({ type: 'value_error.any_str.max_length', loc: ['query', 'symbol'], ctx: { limit_value: 659 } })
  })

  it('is the same in GraphQL: cancelOrders(symbol: [..]), and BAD_USER_INPUT with the same detail', async () => {
    const [one, two] = await Promise.all([1, 2].map(() => createMarket(server.services.db)))
    const onOne = await placed(b, bid(one!))
    const onTwo = await placed(b, bid(two!))
    const cancel = `mutation ($symbol: [String!]) { cancelOrders(symbol: $symbol) { cancelled items { uid } } }`
    const unknown = await server.graphql<any, any>(cancel, { symbol: [one, 'NOPE-USDT'] }, { token: b.token })
    expect(unknown.data).toBeNull()
    expect(unknown.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      detail: [{ type: 'value_error.symbol', loc: ['query', 'symbol'], msg: 'unknown symbol NOPE-USDT', input: 'NOPE-USDT' }],
    })
    const none = await server.graphql<any, any>(cancel, { symbol: [] }, { token: b.token })
    expect(none.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      detail: [{ type: 'value_error.any_str.min_length', loc: ['query', 'symbol'] }],
    })
    expect(await statusOf(b, onOne.uid)).toBe('open')
    const both = await server.graphql<any, any>(cancel, { symbol: [one!.toLowerCase(), two] }, { token: b.token })
    expect(both.data.cancelOrders.cancelled).toBe(2)
    expect(new Set(uids(both.data.cancelOrders.items))).toEqual(new Set([onOne.uid, onTwo.uid]))
  })
})
