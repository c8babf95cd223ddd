import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestClient, type TestClient } from './helpers/auth.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDERS, placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

// Orders by the bank's own id (DESIGN §22; docs/api.md, "Orders by client order id"): read,
// cancelled and listed by `client_order_id`, as by uid, within the caller's tenant.

const BY_ID = `${ORDERS}/by-client-id`

let server: TestServer
let bank: TestClient
let other: TestClient
let reader: TestClient
let symbol: string
beforeAll(async () => {
  server = await startTestServer()
  ;[bank, other, reader] = await Promise.all([createTestClient(server), createTestClient(server), createTestClient(server)])
  reader = await createTestClient(server, { tenant_id: bank.tenantId, scopes: ['orders:read'] })
  symbol = await createMarket(server.services.db)
})
afterAll(async () => {
  await server?.close()
})

const buy = (clientOrderId: string, price = '1.00') => ({ symbol, side: 'buy', type: 'limit', quantity: '1', price, client_order_id: clientOrderId })
const notFound = (id: string) => ({ message: `Order ${id} not found`, error: 'not_found', detail: `Order ${id} not found` })

describe('GET and DELETE /orders/by-client-id/<client_order_id>', () => {
  it('reads the order as GET /orders/<uid> does, and cancels it as DELETE /orders/<uid> does', async () => {
    const placed = await placeOrder(server, bank.token, buy('desk-1/a:b'))
    expect(placed.status).toBe(201)
    const byUid = await server.request('GET', `${ORDERS}/${placed.body.uid}`, { token: bank.token })
    const byId = await server.request('GET', `${BY_ID}/${encodeURIComponent('desk-1/a:b')}`, { token: bank.token })
    expect(byId.status).toBe(200)
    expect(byId.body).toEqual(byUid.body)
    // A reader of the same tenant may read it, not cancel it.
    expect((await server.request('GET', `${BY_ID}/desk-1%2Fa%3Ab`, { token: reader.token })).body).toEqual(byUid.body)
    const denied = await server.request('DELETE', `${BY_ID}/desk-1%2Fa%3Ab`, { token: reader.token })
    expect(denied.status).toBe(403)
    expect(denied.body).toEqual({ message: 'Access denied: requires orders:write', error: 'permission_denied', detail: 'Access denied: requires orders:write' })

    const cancelled = await server.request('DELETE', `${BY_ID}/desk-1%2Fa%3Ab`, { token: bank.token })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toMatchObject({ uid: placed.body.uid, client_order_id: 'desk-1/a:b', status: 'cancelled', cancel_reason: 'user' })
    const again = await server.request('DELETE', `${BY_ID}/desk-1%2Fa%3Ab`, { token: bank.token })
    const message = `Order ${placed.body.uid} is cancelled; only open or partially filled orders can be cancelled`
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ message, error: 'conflict', detail: message })
  })

  it("is scoped to the caller's tenant: another tenant's id is 404, its own same id its own order", async () => {
    const mine = await placeOrder(server, bank.token, buy('shared-id'))
    const theirs = await placeOrder(server, other.token, buy('shared-id'))
    expect((await server.request('GET', `${BY_ID}/shared-id`, { token: bank.token })).body.uid).toBe(mine.body.uid)
    expect((await server.request('GET', `${BY_ID}/shared-id`, { token: other.token })).body.uid).toBe(theirs.body.uid)
    await placeOrder(server, other.token, buy('theirs-only'))
    for (const method of ['GET', 'DELETE']) {
      const res = await server.request(method, `${BY_ID}/theirs-only`, { token: bank.token })
      expect(res.status).toBe(404)
      expect(res.body).toEqual(notFound('theirs-only'))
    }
    expect((await server.request('GET', `${ORDERS}/${theirs.body.uid}`, { token: other.token })).body.status).toBe('open')
  })

  it('answers 404 with the uid body for an id that could never be one, bounded', async () => {
    const long = 'x'.repeat(65)
    const cases: [string, unknown][] = [
      [encodeURIComponent('has space'), notFound('has space')],
      [encodeURIComponent('ünïcode'), notFound('ünïcode')],
      [long, notFound(`${'x'.repeat(64)}…`)],
      ['x'.repeat(64), notFound('x'.repeat(64))],
    ]
    for (const [path, body] of cases) {
      for (const method of ['GET', 'DELETE']) {
        const res = await server.request(method, `${BY_ID}/${path}`, { token: bank.token })
        expect(res.status).toBe(404)
        expect(res.body).toEqual(body)
      }
    }
    const huge = await server.request('GET', `${BY_ID}/${'y'.repeat(5000)}`, { token: bank.token })
    expect(huge.status).toBe(404)
  })
})

describe('client_order_id list filter', () => {
  it('lists the one order of the tenant with this id (REST and GraphQL), and refuses a malformed id', async () => {
    const placed = await placeOrder(server, bank.token, buy('listed-1'))
    await placeOrder(server, other.token, buy('listed-1'))
    const rest = await server.request('GET', `${ORDERS}?client_order_id=listed-1`, { token: bank.token })
    expect(rest.status).toBe(200)
    expect(rest.body.total).toBe(1)
    expect(rest.body.items.map((o: { uid: string }) => o.uid)).toEqual([placed.body.uid])
    const none = await server.request('GET', `${ORDERS}?client_order_id=nothing-here`, { token: bank.token })
    expect(none.body).toMatchObject({ total: 0, items: [] })
    const graphql = await server.graphql<any, any>(
      `query ($filter: OrderFilter) { orders(filter: $filter) { total items { uid clientOrderId } } }`,
      { filter: { clientOrderId: 'listed-1' } },
      { token: bank.token },
    )
    expect(graphql.data.orders).toEqual({ total: 1, items: [{ uid: placed.body.uid, clientOrderId: 'listed-1' }] })

    const bad = await server.request('GET', `${ORDERS}?client_order_id=${'z'.repeat(65)}`, { token: bank.token })
    expect(bad.status).toBe(422)
    expect(bad.body.detail).toEqual([
      {
        type: 'value_error.any_str.max_length',
        loc: ['query', 'client_order_id'],
        msg: 'ensure this value has at most 64 characters',
        input: 'z'.repeat(65),
        ctx: { limit_value: 64 },
      },
    ])
    const badGraphql = await server.graphql<any, any>(
      `query ($filter: OrderFilter) { orders(filter: $filter) { total } }`,
      { filter: { clientOrderId: 'z'.repeat(65) } },
      { token: bank.token },
    )
    expect(badGraphql.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', error: 'validation_error', detail: bad.body.detail })
  })
})

describe('GraphQL: orderByClientOrderId and cancelOrderByClientOrderId', () => {
  it('answers as REST does: the order, null for none, NOT_FOUND to cancel none', async () => {
    const placed = await placeOrder(server, bank.token, buy('gql-1'))
    const read = await server.graphql<any, any>(
      `query ($id: String!) { orderByClientOrderId(clientOrderId: $id) { uid status clientOrderId } }`,
      { id: 'gql-1' },
      { token: bank.token },
    )
    expect(read.data.orderByClientOrderId).toEqual({ uid: placed.body.uid, status: 'open', clientOrderId: 'gql-1' })
    const missing = await server.graphql<any, any>(
      `query ($id: String!) { orderByClientOrderId(clientOrderId: $id) { uid } }`,
      { id: 'gql-none' },
      { token: bank.token },
    )
    expect(missing).toMatchObject({ data: { orderByClientOrderId: null } })
    expect(missing.errors).toBeUndefined()

    const cancel = `mutation ($id: String!) { cancelOrderByClientOrderId(clientOrderId: $id) { uid status cancelReason } }`
    const cancelled = await server.graphql<any, any>(cancel, { id: 'gql-1' }, { token: bank.token })
    expect(cancelled.data.cancelOrderByClientOrderId).toEqual({ uid: placed.body.uid, status: 'cancelled', cancelReason: 'user' })
    const none = await server.graphql<any, any>(cancel, { id: 'gql-none' }, { token: bank.token })
    expect(none.errors).toHaveLength(1)
    expect(none.errors![0]).toMatchObject({ message: 'Order gql-none not found', extensions: { code: 'NOT_FOUND' } })
  })
})
