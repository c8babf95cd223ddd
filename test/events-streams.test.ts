import { crc32 } from 'node:zlib'

import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient, withExpiringToken } from './helpers/auth.ts'
import { openSse, type SseClient } from './helpers/event-stream.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDERS, placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const EVENTS = '/api/exchange/v1/events'
const marketEvents = (symbol: string) => `/api/exchange/v1/symbols/${symbol}/events`

let server: TestServer
let alice: TestClient
let bob: TestClient
let admin: TestClient
const streams: SseClient[] = []

beforeAll(async () => {
  server = await startTestServer({ MAX_STREAMS_PER_CLIENT: '3', EVENTS_PING_SECONDS: '1' })
  await seedDemoMarket(server.services.db)
  ;[alice, bob, admin] = await Promise.all([createTestClient(server), createTestClient(server), createTestClient(server, { roles: ['admin'] })])
})
afterAll(async () => {
  for (const stream of streams) stream.close()
  await server?.close()
})

const open = async (path: string, token: string, headers: Record<string, string> = {}) => {
  const stream = await openSse(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } })
  streams.push(stream)
  return stream
}
const data = (message: { data?: string }) => JSON.parse(message.data!)
const sell = (symbol: string, quantity = '1', price = '10.00') => ({ symbol, side: 'sell', type: 'limit', quantity, price })
const buy = (symbol: string, quantity = '1', price = '10.00') => ({ symbol, side: 'buy', type: 'limit', quantity, price })
/** The tenant's last sequence: with nothing purged, the number of its events. */
const lastSequenceOf = async (token: string): Promise<number> => (await server.request('GET', EVENTS, { token })).body.total

describe('GET /api/exchange/v1/events as Server-Sent Events', () => {
  it('streams the events committed after it opened, each with its sequence as id and its type as event', async () => {
    const symbol = await createMarket(server.services.db)
    await placeOrder(server, alice.token, sell(symbol, '1', '50.00')) // before the stream: not carried
    const stream = await open(EVENTS, alice.token)
    expect(stream.status).toBe(200)
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(stream.headers.get('cache-control')).toBe('no-store')
    expect(stream.headers.get('x-request-id')).toBeTruthy()
    const next = (await lastSequenceOf(alice.token)) + 1
    const order = (await placeOrder(server, alice.token, sell(symbol, '2', '11.00'))).body
    const taken = (await placeOrder(server, bob.token, buy(symbol, '2', '11.00'))).body
    // Each change of an order is followed by the balance events of the accounts it changed.
    const messages = await stream.messages(3)
    expect(messages.map((m) => [m.id, m.event])).toEqual([
      [String(next), 'order.created'],
      [String(next + 1), 'balance'],
      [String(next + 2), 'fill'],
    ])
    const [created, , fill] = messages.map(data)
    expect(created).toEqual({ sequence: next, type: 'order.created', created_at: order.created_at, order, fill: null })
    expect(fill.order.status).toBe('filled')
    expect(fill.fill).toMatchObject({ order_uid: order.uid, role: 'maker', side: 'sell', price: '11.00', quantity: '2.00' })
    expect(fill.fill.trade_uid).toBeTruthy()
    expect(taken.status).toBe('filled')
    // Bob's events never reach Alice's stream.
    expect(stream.received.filter((m) => m.data && data(m).order).every((m) => data(m).order.tenant_id === alice.tenantId)).toBe(true)
    stream.close()
  })

  it('resumes after a cut with exactly the missed events, in order, then live ones (after= and Last-Event-ID alike)', async () => {
    const symbol = await createMarket(server.services.db)
    const first = await open(EVENTS, bob.token)
    await placeOrder(server, bob.token, sell(symbol, '1', '20.00'))
    const [, seen] = await first.messages(2)
    first.close()
    // While no stream is open: three more order events, each with its balance event.
    await placeOrder(server, bob.token, sell(symbol, '1', '21.00'))
    const cancelled = (await placeOrder(server, bob.token, sell(symbol, '1', '22.00'))).body
    await server.request('DELETE', `${ORDERS}/${cancelled.uid}`, { token: bob.token })
    const last = Number(seen!.id)
    for (const resume of [
      { path: `${EVENTS}?after=${last}`, headers: {} as Record<string, string> },
      { path: EVENTS, headers: { 'last-event-id': String(last) } },
    ]) {
      const stream = await open(resume.path, bob.token, resume.headers)
      const missed = await stream.messages(6)
      expect(missed.map((m) => [Number(m.id), m.event, data(m).order?.price ?? null])).toEqual([
        [last + 1, 'order.created', '21.00'],
        [last + 2, 'balance', null],
        [last + 3, 'order.created', '22.00'],
        [last + 4, 'balance', null],
        [last + 5, 'order.updated', '22.00'],
        [last + 6, 'balance', null],
      ])
      expect(data(missed[4]!).order.status).toBe('cancelled')
      await placeOrder(server, bob.token, sell(symbol, '1', '23.00'))
      const live = (await stream.messages(7))[6]
      expect([Number(live!.id), live!.event]).toEqual([last + 7, 'order.created'])
      stream.close()
      // The second round resumes from the same point: the live event of the first is missed too.
      await server.request('DELETE', `${ORDERS}/${data(live!).order.uid}`, { token: bob.token })
    }
  })

  it('sends a ping comment on an idle stream (EVENTS_PING_SECONDS)', async () => {
    const stream = await open(EVENTS, alice.token)
    await stream.waitFor((m) => m.comment === 'ping', 3000)
    expect((await server.request('GET', '/metrics')).text).toMatch(/^event_streams_open [1-9]\d*$/m)
    stream.close()
  })

  it('answers a HEAD with the stream head and no body', async () => {
    const head = await fetch(`${server.url}${EVENTS}`, { method: 'HEAD', headers: { accept: 'text/event-stream', authorization: `Bearer ${alice.token}` } })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(await head.text()).toBe('')
  })

  it('limits the streams a client holds open (MAX_STREAMS_PER_CLIENT) and frees a slot when one closes', async () => {
    const client = await createTestClient(server)
    const held = await Promise.all([1, 2, 3].map(() => open(EVENTS, client.token)))
    expect(held.map((s) => s.status)).toEqual([200, 200, 200])
    const refused = await server.request('GET', EVENTS, { token: client.token, headers: { accept: 'text/event-stream' } })
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({
      message: 'Too many open event streams: at most 3 per client',
      error: 'rate_limited',
      detail: 'Too many open event streams: at most 3 per client',
    })
    expect(refused.headers.get('retry-after')).toBe('5')
    // Polling is not a stream: still answered.
    expect((await server.request('GET', EVENTS, { token: client.token })).status).toBe(200)
    held[0]!.close()
    await held[0]!.ended
    let reopened: SseClient | undefined
    for (let attempt = 0; attempt < 50 && reopened?.status !== 200; attempt++) {
      reopened?.close()
      if (attempt) await new Promise((resolve) => setTimeout(resolve, 50))
      reopened = await open(EVENTS, client.token)
    }
    expect(reopened!.status).toBe(200)
    for (const stream of [...held, reopened!]) stream.close()
  })

  it('checks the token, the scope and the tenant before opening anything', async () => {
    const noToken = await server.request('GET', EVENTS, { headers: { accept: 'text/event-stream' } })
    expect(noToken.status).toBe(401)
    expect(noToken.body).toEqual({ message: 'No token provided', error: 'Unauthorized', detail: 'No token provided' })
    const symbolsOnly = await createTestClient(server, { scopes: ['symbols:read'] })
    const refused = await server.request('GET', EVENTS, { token: symbolsOnly.token, headers: { accept: 'text/event-stream' } })
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe('Access denied: requires orders:read')
    const other = await server.request('GET', `${EVENTS}?tenant_id=${bob.tenantId}`, { token: alice.token, headers: { accept: 'text/event-stream' } })
    expect(other.status).toBe(403)
    expect(other.body.message).toBe('Token belongs to different client')
  })

  it("lets an admin follow another tenant's stream with tenant_id", async () => {
    const symbol = await createMarket(server.services.db)
    const stream = await open(`${EVENTS}?tenant_id=${alice.tenantId}`, admin.token)
    const order = (await placeOrder(server, alice.token, sell(symbol, '1', '30.00'))).body
    const [message] = await stream.messages(1)
    expect(data(message!).order).toEqual(order)
    stream.close()
  })
})

describe('GET /api/exchange/v1/events as JSON, for pollers', () => {
  it('answers a list envelope of the events after `after`, `limit` at a time, with the total after `after`', async () => {
    const client = await createTestClient(server)
    const symbol = await createMarket(server.services.db)
    for (const price of ['1.00', '2.00', '3.00']) await placeOrder(server, client.token, sell(symbol, '1', price))
    const all = await server.request('GET', EVENTS, { token: client.token })
    expect(all.status).toBe(200)
    expect(all.body.heads).toEqual({
      sequence: { en: 'Sequence' },
      type: { en: 'Type' },
      created_at: { en: 'Created At' },
      order: { en: 'Order' },
      fill: { en: 'Fill' },
      account: { en: 'Account' },
      entry: { en: 'Entry' },
      withdrawal: { en: 'Withdrawal' },
    })
    // Each order's order.created, then the balance event of what it holds.
    expect(all.body.items.map((e: any) => [e.sequence, e.type, e.order?.price ?? e.account.hold])).toEqual([
      [1, 'order.created', '1.00'],
      [2, 'balance', '1.00'],
      [3, 'order.created', '2.00'],
      [4, 'balance', '2.00'],
      [5, 'order.created', '3.00'],
      [6, 'balance', '3.00'],
    ])
    expect([all.body.total, all.body.offset, all.body.limit]).toEqual([6, 0, 100])
    const page = await server.request('GET', `${EVENTS}?after=1&limit=1`, { token: client.token })
    expect(page.body.items.map((e: any) => e.sequence)).toEqual([2])
    expect([page.body.total, page.body.limit]).toEqual([5, 1])
    const end = await server.request('GET', `${EVENTS}?after=6`, { token: client.token })
    expect([end.body.items, end.body.total]).toEqual([[], 0])
  })

  it('refuses a bad `after` (422) and one past the stream (422), with nothing changed', async () => {
    const client = await createTestClient(server)
    for (const after of ['-1', 'x', '1.5', '9'.repeat(40)]) {
      const res = await server.request('GET', `${EVENTS}?after=${after}`, { token: client.token })
      expect(res.status).toBe(422)
      expect(res.body.detail[0].loc).toEqual(['query', 'after'])
    }
    const past = await server.request('GET', `${EVENTS}?after=5`, { token: client.token })
    expect(past.status).toBe(422)
    expect(past.body).toEqual({
      detail: [
        { type: 'value_error.number.not_le', loc: ['query', 'after'], msg: 'ensure this value is less than or equal to 0', input: 5, ctx: { limit_value: 0 } },
      ],
    })
    const header = await server.request('GET', EVENTS, { token: client.token, headers: { accept: 'text/event-stream', 'last-event-id': 'abc' } })
    expect(header.status).toBe(422)
    expect(header.body.detail[0]).toEqual({ type: 'type_error.integer', loc: ['header', 'last-event-id'], msg: 'value is not a valid integer', input: 'abc' })
    const extra = await server.request('GET', `${EVENTS}?page=2`, { token: client.token })
    expect(extra.status).toBe(422)
  })

  it('answers 410 events_expired when resuming from before what is kept, on both kinds of request', async () => {
    const client = await createTestClient(server)
    const symbol = await createMarket(server.services.db)
    for (const price of ['1.00', '2.00', '3.00']) await placeOrder(server, client.token, sell(symbol, '1', price))
    // What the retention purge does to events older than EVENT_RETENTION_DAYS.
    await sql`delete from tenant_events where tenant_id = ${client.tenantId} and sequence <= 2`.execute(server.services.db)
    const expired = {
      message: 'Events after 0 are no longer kept (events are kept 7 days); resume after 2',
      error: 'events_expired',
      detail: 'Events after 0 are no longer kept (events are kept 7 days); resume after 2',
    }
    const listed = await server.request('GET', `${EVENTS}?after=0`, { token: client.token })
    expect([listed.status, listed.body]).toEqual([410, expired])
    const streamed = await server.request('GET', EVENTS, { token: client.token, headers: { accept: 'text/event-stream', 'last-event-id': '0' } })
    expect([streamed.status, streamed.body]).toEqual([410, expired])
    // From what is kept on, and without `after`: answered.
    const kept = await server.request('GET', EVENTS, { token: client.token })
    expect([kept.status, kept.body.items.map((e: any) => e.sequence), kept.body.total]).toEqual([200, [3, 4, 5, 6], 4])
    expect((await server.request('GET', `${EVENTS}?after=2`, { token: client.token })).body.items.map((e: any) => e.sequence)).toEqual([3, 4, 5, 6])
  })
})

describe('GET /api/exchange/v1/symbols/<symbol>/events', () => {
  it("streams a symbol's trades and book level changes, which applied to the snapshot give the book", async () => {
    const symbol = await createMarket(server.services.db)
    await placeOrder(server, alice.token, sell(symbol, '3', '10.00'))
    const snapshot = (await server.request('GET', `/api/exchange/v1/symbols/${symbol}/book`, { token: alice.token })).body
    const stream = await open(`${marketEvents(symbol)}?after=${snapshot.sequence}`, bob.token)
    await placeOrder(server, bob.token, buy(symbol, '1', '10.00'))
    await placeOrder(server, bob.token, buy(symbol, '1', '9.00'))
    const messages = await stream.messages(4)
    expect(messages.map((m) => [Number(m.id) - snapshot.sequence, m.event])).toEqual([
      [1, 'trade'],
      [2, 'candle'],
      [3, 'book'],
      [4, 'book'],
    ])
    const [trade, candle, ask, bid] = messages.map(data)
    expect(candle.candle).toMatchObject({ interval: '1m', open: '10.00', close: '10.00', volume: '1.00', trade_count: 1 })
    expect(trade.trade).toMatchObject({ symbol, price: '10.00', quantity: '1.00', taker_side: 'buy', sequence: snapshot.sequence + 1 })
    expect(Object.keys(trade.trade)).toEqual(['uid', 'symbol', 'price', 'quantity', 'taker_side', 'created_at', 'sequence'])
    expect(ask.book).toEqual({ side: 'sell', price: '10.00', quantity: '2.00', orders: 1, checksum: crc32('10.00:2.00|') })
    expect(bid.book).toEqual({ side: 'buy', price: '9.00', quantity: '1.00', orders: 1, checksum: crc32('10.00:2.00|9.00:1.00') })
    const book = (await server.request('GET', `/api/exchange/v1/symbols/${symbol}/book`, { token: alice.token })).body
    expect(book).toMatchObject({
      sequence: snapshot.sequence + 4,
      bids: [{ price: '9.00', quantity: '1.00', orders: 1 }],
      asks: [{ price: '10.00', quantity: '2.00', orders: 1 }],
    })
    // No tenant appears in market data.
    expect(JSON.stringify(messages)).not.toContain(bob.tenantId)
    stream.close()
    const listed = await server.request('GET', `${marketEvents(symbol)}?after=${snapshot.sequence}`, { token: alice.token })
    expect(listed.body.items).toEqual([trade, candle, ask, bid])
    expect(Object.keys(listed.body.heads)).toEqual(['sequence', 'type', 'created_at', 'trade', 'book', 'candle'])
  })

  it('answers 404 for an unknown symbol and 403 without symbols:read', async () => {
    const unknown = await server.request('GET', marketEvents('NOPE-NOPE'), { token: alice.token, headers: { accept: 'text/event-stream' } })
    expect(unknown.status).toBe(404)
    const ordersOnly = await createTestClient(server, { scopes: ['orders:read'] })
    const refused = await server.request('GET', marketEvents('USD-IRR'), { token: ordersOnly.token })
    expect(refused.status).toBe(403)
    expect(refused.body.message).toBe('Access denied: requires symbols:read')
  })
})

describe('a stream whose token expires', () => {
  const metric = async (pattern: RegExp) => Number(pattern.exec((await server.request('GET', '/metrics')).text)?.[1] ?? 0)
  const endedExpired = () => metric(/^event_streams_ended_total\{reason="token_expired"\} (\d+)$/m)
  const openStreams = () => metric(/^event_streams_open (\d+)$/m)

  it('sends event: token_expired with a data line saying where to resume, then ends', async () => {
    const client = await createTestClient(server)
    const symbol = await createMarket(server.services.db)
    const { stream, held, before } = await withExpiringToken(server, client, async (token) => {
      const before = { expired: await endedExpired(), open: await openStreams() }
      const stream = await open(EVENTS, token)
      if (stream.status !== 200) return undefined
      await placeOrder(server, client.token, sell(symbol))
      // Both events must arrive before the token expires; on a host too slow for that, a longer token.
      const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }
      const held = await stream.messages(2).then(
        ([, second]) => (Date.now() < exp * 1000 ? second : undefined),
        () => undefined,
      )
      return held && { stream, held, before }
    })
    await stream.ended
    const last = stream.received.filter((m) => m.comment === undefined).at(-1)!
    expect(last.event).toBe('token_expired')
    expect(last.id).toBeUndefined()
    expect(JSON.parse(last.data!)).toEqual({ message: 'JWT has expired', after: Number(held!.id) })
    expect(await endedExpired()).toBe(before.expired + 1)
    expect(await openStreams()).toBe(before.open)
  }, 60_000)
})

describe('shutdown', () => {
  it('ends open streams at once, so clients reconnect elsewhere', async () => {
    const other = await startTestServer()
    const client = await createTestClient(other)
    const stream = await openSse(`${other.url}${EVENTS}`, { headers: { authorization: `Bearer ${client.token}` } })
    expect(stream.status).toBe(200)
    const started = Date.now()
    await other.close()
    await stream.ended
    // Well under the 10 s a connection still open would be given.
    expect(Date.now() - started).toBeLessThan(5000)
  })
})
