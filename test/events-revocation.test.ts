import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { deactivateClient, revokeSessionsOfClient, rotateClientSecret } from '../src/modules/auth/clients/clients.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { openSse, type SseClient } from './helpers/event-stream.ts'
import { eventually } from './helpers/eventually.ts'
import { createMarket } from './helpers/markets.ts'
import { placeOrder } from './helpers/orders.ts'
import { SHORT_RELOAD_MS, startTestServer, type TestServer } from './helpers/server.ts'

const EVENTS = '/api/exchange/v1/events'
const ORDER_EVENTS = 'subscription { orderEvents { sequence type } }'
const MARKET_EVENTS = 'subscription($symbol: String!) { marketEvents(symbol: $symbol) { sequence type } }'
// Only how long a test waits before failing when streams are not ended.
const GIVE_UP_MS = 5000

let server: TestServer
const streams: SseClient[] = []

beforeAll(async () => {
  server = await startTestServer({}, undefined, { intervals: { revocations: SHORT_RELOAD_MS } })
})
afterAll(async () => {
  for (const stream of streams) stream.close()
  await server?.close()
})

const track = (stream: SseClient) => {
  streams.push(stream)
  return stream
}
const sse = async (path: string, token: string) => track(await openSse(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } }))
const subscription = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
  const stream = track(
    await openSse(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    }),
  )
  // Yoga's first ping: the subscription is set up.
  await stream.waitFor((m) => m.comment !== undefined)
  return stream
}
const ended = (stream: SseClient) =>
  Promise.race([stream.ended, new Promise((_, reject) => setTimeout(() => reject(new Error(`not ended: ${JSON.stringify(stream.received)}`)), GIVE_UP_MS))])
const lastMessage = (stream: SseClient) => stream.received.filter((m) => m.comment === undefined).at(-1)!
const lastResult = (stream: SseClient) => JSON.parse(stream.received.filter((m) => m.event === 'next').at(-1)!.data!)

/** Every kind of stream the client can hold, each having delivered what one order wrote, and where each stands. */
async function openAll(client: TestClient) {
  const symbol = await createMarket(server.services.db)
  const streams = {
    tenant: await sse(EVENTS, client.token),
    market: await sse(`/api/exchange/v1/symbols/${symbol}/events`, client.token),
    orderEvents: await subscription(client.token, ORDER_EVENTS),
    marketEvents: await subscription(client.token, MARKET_EVENTS, { symbol }),
  }
  await placeOrder(server, client.token, { symbol, side: 'sell', type: 'limit', quantity: '1', price: '10.00' })
  // The order's order.created, then its hold's balance event.
  const [, balance] = await streams.tenant.messages(2)
  const [book] = await streams.market.messages(1)
  await Promise.all([streams.orderEvents.waitFor((m) => m.event === 'next'), streams.marketEvents.waitFor((m) => m.event === 'next')])
  return { streams, after: { tenant: Number(balance!.id), market: Number(book!.id) } }
}

/** Each stream ends, naming the revocation, on both transports. */
async function expectRevokedEnds({ streams, after }: Awaited<ReturnType<typeof openAll>>) {
  await Promise.all(Object.values(streams).map(ended))
  for (const [stream, resumeAfter] of [
    [streams.tenant, after.tenant],
    [streams.market, after.market],
  ] as const) {
    const last = lastMessage(stream)
    expect(last.event).toBe('token_revoked')
    expect(last.id).toBeUndefined()
    expect(JSON.parse(last.data!)).toEqual({ message: 'JWT has been revoked', after: resumeAfter })
  }
  for (const stream of [streams.orderEvents, streams.marketEvents]) {
    expect(lastResult(stream).errors).toEqual([
      expect.objectContaining({ message: 'JWT has been revoked', extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) }),
    ])
    expect(lastMessage(stream).event).toBe('complete')
  }
}

describe('open streams end with their credentials, on both transports, at the next reload', () => {
  it('client revoke-sessions ends every stream of the client, and no other', async () => {
    const [bank, bystander] = await Promise.all([createTestClient(server), createTestClient(server)])
    const opened = await openAll(bank)
    const other = await sse(EVENTS, bystander.token)
    // As the CLI does it, from outside the server: the server learns of it from the database.
    expect((await revokeSessionsOfClient(server.services.db, bank.clientId)).revoked_sessions).toBe(1)
    await expectRevokedEnds(opened)
    // Refused as any request with the token is.
    const again = await server.request('GET', EVENTS, { token: bank.token, headers: { accept: 'text/event-stream' } })
    expect([again.status, again.body.message]).toEqual([401, 'JWT has been revoked'])
    // Another client's stream goes on.
    const symbol = await createMarket(server.services.db)
    await placeOrder(server, bystander.token, { symbol, side: 'sell', type: 'limit', quantity: '1', price: '10.00' })
    expect((await other.messages(1))[0]!.event).toBe('order.created')
    other.close()
    const metrics = (await server.request('GET', '/metrics')).text
    expect(metrics).toMatch(/^event_streams_ended_total\{reason="token_revoked"\} [4-9]\d*$/m)
  })

  it('client rotate-secret ends them', async () => {
    const bank = await createTestClient(server)
    const opened = await openAll(bank)
    await rotateClientSecret(server.services.db, bank.clientId)
    await expectRevokedEnds(opened)
  })

  it('client deactivate ends them', async () => {
    const bank = await createTestClient(server)
    const opened = await openAll(bank)
    await deactivateClient(server.services.db, bank.clientId)
    await expectRevokedEnds(opened)
    // Every slot given back (the bystander's stream of the first test closes on its own time).
    await eventually(async () => ((await server.request('GET', '/metrics')).text.includes('event_streams_open 0\n') ? true : undefined), 5000)
  })
})
