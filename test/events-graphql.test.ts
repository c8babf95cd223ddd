import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestClient, type TestClient, withExpiringToken } from './helpers/auth.ts'
import { openSse, type SseClient } from './helpers/event-stream.ts'
import { eventually } from './helpers/eventually.ts'
import { createMarket } from './helpers/markets.ts'
import { placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const EVENTS = '/api/exchange/v1/events'

let server: TestServer
let alice: TestClient
let bob: TestClient
const streams: SseClient[] = []

beforeAll(async () => {
  server = await startTestServer({ MAX_STREAMS_PER_CLIENT: '2' })
  ;[alice, bob] = await Promise.all([createTestClient(server), createTestClient(server)])
})
afterAll(async () => {
  for (const stream of streams) stream.close()
  await server?.close()
})

/** A GraphQL subscription over SSE, as Yoga serves it (`event: next` per result, `event: complete` at the end). */
const subscribe = async (target: TestServer, token: string, query: string, variables: Record<string, unknown> = {}) => {
  const stream = await openSse(`${target.url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  })
  streams.push(stream)
  return stream
}
const results = async (stream: SseClient, count: number) =>
  (await stream.messages(count)).filter((m) => m.event === 'next').map((m) => JSON.parse(m.data!) as { data?: any; errors?: any[] })

const ORDER_EVENTS = `subscription($after: String) {
  orderEvents(after: $after) { sequence type createdAt order { uid status filledQuantity averagePrice } fill { role price quantity } }
}`
const MARKET_EVENTS = `subscription($symbol: String!, $after: String) {
  marketEvents(symbol: $symbol, after: $after) { sequence type createdAt trade { price quantity takerSide sequence } book { side price quantity orders checksum } candle { openTime open high low close volume tradeCount } }
}`
const sell = (symbol: string, quantity: string, price: string) => ({ symbol, side: 'sell', type: 'limit', quantity, price })
const buy = (symbol: string, quantity: string, price: string) => ({ symbol, side: 'buy', type: 'limit', quantity, price })

describe('GraphQL subscriptions over SSE', () => {
  it('orderEvents carries the same events, with the same sequences, as the REST stream', async () => {
    const symbol = await createMarket(server.services.db)
    const graphql = await subscribe(server, alice.token, ORDER_EVENTS)
    const rest = await openSse(`${server.url}${EVENTS}`, { headers: { authorization: `Bearer ${alice.token}` } })
    streams.push(rest)
    // Both open (Yoga starts its stream with a ping comment once the subscription is set up).
    await graphql.waitFor((m) => m.comment !== undefined)
    const order = (await placeOrder(server, alice.token, sell(symbol, '2', '10.00'))).body
    await placeOrder(server, bob.token, buy(symbol, '2', '10.00'))
    // The order's events (its fill, then its new state), each pass's followed by the balance events of the accounts it changed.
    const viaRest = (await rest.messages(6)).map((m) => JSON.parse(m.data!))
    const viaGraphql = (await results(graphql, 6)).map((r) => r.data!.orderEvents)
    expect(viaGraphql).toEqual(
      viaRest.map((e) => ({
        sequence: String(e.sequence),
        type: e.type,
        createdAt: e.created_at,
        order: e.order && { uid: e.order.uid, status: e.order.status, filledQuantity: e.order.filled_quantity, averagePrice: e.order.average_price },
        fill: e.fill && { role: e.fill.role, price: e.fill.price, quantity: e.fill.quantity },
      })),
    )
    expect(viaGraphql.map((e) => [e.type, e.order?.uid ?? null])).toEqual([
      ['order.created', order.uid],
      ['balance', null],
      ['fill', order.uid],
      ['order.updated', order.uid],
      ['balance', null],
      ['balance', null],
    ])
    graphql.close()
    rest.close()
  })

  it('marketEvents resumes after a sequence, as the REST list answers it', async () => {
    const symbol = await createMarket(server.services.db)
    await placeOrder(server, alice.token, sell(symbol, '3', '10.00'))
    await placeOrder(server, bob.token, buy(symbol, '1', '10.00'))
    const stream = await subscribe(server, bob.token, MARKET_EVENTS, { symbol: symbol.toLowerCase(), after: '0' })
    const listed = (await server.request('GET', `/api/exchange/v1/symbols/${symbol}/events?after=0`, { token: bob.token })).body.items
    const received = (await results(stream, listed.length)).map((r) => r.data!.marketEvents)
    expect(listed.map((e: any) => e.type)).toEqual(['book', 'trade', 'candle', 'book'])
    expect(received).toEqual(
      listed.map((e: any) => ({
        sequence: String(e.sequence),
        type: e.type,
        createdAt: e.created_at,
        trade: e.trade ? { price: e.trade.price, quantity: e.trade.quantity, takerSide: e.trade.taker_side, sequence: String(e.trade.sequence) } : null,
        book: e.book ? { ...e.book, checksum: String(e.book.checksum) } : null,
        candle: e.candle
          ? {
              openTime: e.candle.open_time,
              open: e.candle.open,
              high: e.candle.high,
              low: e.candle.low,
              close: e.candle.close,
              volume: e.candle.volume,
              tradeCount: e.candle.trade_count,
            }
          : null,
      })),
    )
    stream.close()
  })

  it('answers a refused subscription with the REST error codes: bad after, expired, unknown symbol, too many streams', async () => {
    const client = await createTestClient(server)
    const first = async (stream: SseClient) => (await results(stream, 1))[0]!
    const bad = await first(await subscribe(server, client.token, ORDER_EVENTS, { after: 'x' }))
    expect(bad.errors![0].extensions.code).toBe('BAD_USER_INPUT')
    expect(bad.errors![0].extensions.detail[0]).toMatchObject({ type: 'type_error.integer', loc: ['query', 'after'] })
    const past = await first(await subscribe(server, client.token, ORDER_EVENTS, { after: '7' }))
    expect(past.errors![0].extensions.detail[0].type).toBe('value_error.number.not_le')
    const unknown = await first(await subscribe(server, client.token, MARKET_EVENTS, { symbol: 'NOPE-NOPE' }))
    expect(unknown.errors![0].extensions.code).toBe('NOT_FOUND')
    const held = [await subscribe(server, client.token, ORDER_EVENTS), await subscribe(server, client.token, ORDER_EVENTS)]
    await Promise.all(held.map((s) => s.waitFor((m) => m.comment !== undefined)))
    const refused = await first(await subscribe(server, client.token, ORDER_EVENTS))
    expect(refused.errors![0]).toMatchObject({ message: 'Too many open event streams: at most 2 per client', extensions: { code: 'RATE_LIMITED' } })
    for (const stream of held) stream.close()
  })

  it('gives back the stream slot of a subscription that is refused (406: the client accepts no stream)', async () => {
    const client = await createTestClient(server)
    const accepts = ['application/json', 'application/graphql-response+json', 'multipart/mixed', 'text/html']
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { accept: accepts[i % accepts.length]!, 'content-type': 'application/json', authorization: `Bearer ${client.token}` },
        body: JSON.stringify({ query: ORDER_EVENTS }),
      })
      expect([res.status, await res.text()]).toEqual([406, ''])
    }
    await eventually(async () => (server.services.events.size === 0 ? true : undefined), 5000)
    // Both of the client's slots (MAX_STREAMS_PER_CLIENT=2) are free.
    const held = [await subscribe(server, client.token, ORDER_EVENTS), await subscribe(server, client.token, ORDER_EVENTS)]
    expect(held.map((s) => s.status)).toEqual([200, 200])
    await Promise.all(held.map((s) => s.waitFor((m) => m.comment !== undefined)))
    for (const stream of held) stream.close()
    await eventually(async () => (server.services.events.size === 0 ? true : undefined), 5000)
  })

  it('completes open subscriptions at shutdown, so clients reconnect elsewhere', async () => {
    const other = await startTestServer()
    const client = await createTestClient(other)
    const stream = await subscribe(other, client.token, ORDER_EVENTS)
    await stream.waitFor((m) => m.comment !== undefined)
    const started = Date.now()
    await other.close()
    await stream.ended
    expect(stream.received.at(-1)).toMatchObject({ event: 'complete' })
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('ends with UNAUTHENTICATED "JWT has expired" when the token expires', async () => {
    const client = await createTestClient(server)
    const stream = await withExpiringToken(server, client, async (token) => {
      const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }
      const stream = await subscribe(server, token, ORDER_EVENTS)
      // Subscribed (its first ping) before the token expired; on a host too slow for that, a longer token.
      const subscribed = await stream
        .waitFor((m) => m.comment !== undefined)
        .then(
          () => Date.now() < exp * 1000,
          () => false,
        )
      return subscribed ? stream : undefined
    })
    await stream.ended
    const [last] = (await results(stream, 1)).slice(-1)
    expect(last!.errors![0]).toMatchObject({ message: 'JWT has expired', extensions: { code: 'UNAUTHENTICATED' } })
    expect(stream.received.at(-1)).toMatchObject({ event: 'complete' })
  }, 60_000)
})
