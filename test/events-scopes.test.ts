import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { readEvents, tenantStream } from '../src/modules/exchange/events/events.repository.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { openSse, type SseClient } from './helpers/event-stream.ts'
import { eventually } from './helpers/eventually.ts'
import { type GraphQLSocket, openGraphQLSocket } from './helpers/graphql-socket.ts'
import { createMarket } from './helpers/markets.ts'
import { placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

// Who sees which events of a tenant stream (docs/events.md, "Who sees which events"): `balance`
// only with accounts:read, on every face; without it the stream skips them and keeps its numbers.

const EVENTS = '/api/exchange/v1/events'
const ORDER_EVENTS = 'subscription($after: String) { orderEvents(after: $after) { sequence type } }'

let server: TestServer
let noAccounts: TestClient
let withAccounts: TestClient
const streams: SseClient[] = []
const sockets: GraphQLSocket[] = []

beforeAll(async () => {
  server = await startTestServer()
  ;[noAccounts, withAccounts] = await Promise.all([
    createTestClient(server, { scopes: ['orders:read', 'orders:write', 'symbols:read'] }),
    createTestClient(server),
  ])
})
afterAll(async () => {
  for (const stream of streams) stream.close()
  for (const socket of sockets) socket.close()
  await server?.close()
})

const order = (symbol: string, side: 'buy' | 'sell', price = '10.00') => ({ symbol, side, type: 'limit', quantity: '2', price })
const pairs = (events: { sequence: number | string; type: string }[]) => events.map((e) => [Number(e.sequence), e.type])

/** What the tenant's stream holds, and of it what a caller without accounts:read is given. */
async function stored(client: TestClient) {
  const all = pairs(await readEvents(server.services.db, tenantStream(client.tenantId), 0, 1000))
  return { all, visible: all.filter(([, type]) => type !== 'balance') }
}

const sse = async (token: string, path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) => {
  const stream = await openSse(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } })
  streams.push(stream)
  return stream
}

describe('balance events and accounts:read', () => {
  it('are skipped, gaps showing, on every face for a caller without accounts:read', async () => {
    const symbol = await createMarket(server.services.db)
    const maker = (await placeOrder(server, noAccounts.token, order(symbol, 'sell'))).body
    const taker = (await placeOrder(server, withAccounts.token, order(symbol, 'buy'))).body
    expect([maker.status, taker.status]).toEqual(['open', 'filled'])

    // Opened from the start (replay), then one live event each.
    const rest = await sse(noAccounts.token, `${EVENTS}?after=0`)
    const graphql = await sse(noAccounts.token, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: ORDER_EVENTS, variables: { after: '0' } }),
    })
    const socket = await openGraphQLSocket(server.url)
    sockets.push(socket)
    await socket.init(`Bearer ${noAccounts.token}`)
    socket.subscribe('events', ORDER_EVENTS, { after: '0' })
    await placeOrder(server, noAccounts.token, order(symbol, 'sell', '11.00'))

    const { all, visible } = await stored(noAccounts)
    // The stream holds balance events between the order events (the hold, then the settlement).
    expect(all.filter(([, type]) => type === 'balance').length).toBeGreaterThanOrEqual(3)
    expect(visible.map(([, type]) => type)).toEqual(['order.created', 'fill', 'order.updated', 'order.created'])

    const polled = await server.request('GET', `${EVENTS}?after=0`, { token: noAccounts.token })
    expect(polled.status).toBe(200)
    expect(pairs(polled.body.items)).toEqual(visible)
    // `total` counts sequences, skipped ones included: after + total is the stream's last.
    expect(polled.body.total).toBe(all.length)
    // A page of two, then on from its last item: nothing skipped but balance events.
    const first = await server.request('GET', `${EVENTS}?after=0&limit=2`, { token: noAccounts.token })
    const second = await server.request('GET', `${EVENTS}?after=${first.body.items[1].sequence}`, { token: noAccounts.token })
    expect([...pairs(first.body.items), ...pairs(second.body.items)]).toEqual(visible)

    expect((await rest.messages(visible.length)).map((m) => [Number(m.id), m.event])).toEqual(visible)
    const viaGraphql = (await graphql.messages(visible.length)).filter((m) => m.event === 'next').map((m) => JSON.parse(m.data!).data.orderEvents)
    expect(pairs(viaGraphql)).toEqual(visible)
    const viaSocket = await eventually(async () => {
      const next = socket.received.filter((m) => m.id === 'events' && m.type === 'next')
      return next.length >= visible.length ? next.map((m) => m.payload.data.orderEvents) : undefined
    }, 10_000)
    expect(pairs(viaSocket)).toEqual(visible)
    expect([...rest.received, ...graphql.received].some((m) => m.data?.includes('"balance"'))).toBe(false)
  })

  it('are given, gapless, to a caller with accounts:read', async () => {
    const symbol = await createMarket(server.services.db)
    await placeOrder(server, withAccounts.token, order(symbol, 'sell'))
    await placeOrder(server, noAccounts.token, order(symbol, 'buy'))
    const { all } = await stored(withAccounts)
    const polled = await server.request('GET', `${EVENTS}?after=0`, { token: withAccounts.token })
    expect(pairs(polled.body.items)).toEqual(all.slice(0, 100))
    expect(all.map(([sequence]) => sequence)).toEqual(all.map((_, i) => i + 1))
    const graphql = await sse(withAccounts.token, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: ORDER_EVENTS, variables: { after: '0' } }),
    })
    const viaGraphql = (await graphql.messages(all.length)).filter((m) => m.event === 'next').map((m) => JSON.parse(m.data!).data.orderEvents)
    expect(pairs(viaGraphql)).toEqual(all)
    expect(all.some(([, type]) => type === 'balance')).toBe(true)
  })
})

describe('an admin following a tenant named in upper case', () => {
  it('gets its live events, as with the id in lower case', async () => {
    const admin = await createTestClient(server, { roles: ['admin'], funded: false })
    const symbol = await createMarket(server.services.db)
    const stream = await sse(admin.token, `${EVENTS}?tenant_id=${withAccounts.tenantId.toUpperCase()}`)
    expect(stream.status).toBe(200)
    const placed = (await placeOrder(server, withAccounts.token, order(symbol, 'sell', '12.00'))).body
    const [created] = await stream.messages(1)
    expect([created!.event, JSON.parse(created!.data!).order.uid]).toEqual(['order.created', placed.uid])
  })
})
