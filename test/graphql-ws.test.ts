import type { Socket } from 'node:net'
import { join } from 'node:path'

import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'

import { revokeSessionsOfClient } from '../src/modules/auth/clients/clients.ts'
import { MAX_BUFFERED_BYTES } from '../src/modules/exchange/events/event-streams.ts'
import { tenantStream } from '../src/modules/exchange/events/events.repository.ts'
import { createTestClient, type TestClient, withExpiringToken } from './helpers/auth.ts'
import { eventually } from './helpers/eventually.ts'
import { type GraphQLSocket, openGraphQLSocket } from './helpers/graphql-socket.ts'
import { createMarket } from './helpers/markets.ts'
import { placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const MANIFEST = join(import.meta.dirname, '../examples/dashboard/generated/persisted-documents.json')
const ORDER_EVENTS = 'subscription($after: String) { orderEvents(after: $after) { sequence type order { uid status } } }'
// The promise (docs/api.md, "Identity and tokens"): a revocation reaches every stream within 5 s.
const WITHIN_MS = 5000

let server: TestServer
let bank: TestClient
const sockets: GraphQLSocket[] = []

beforeAll(async () => {
  server = await startTestServer({ MAX_STREAMS_PER_CLIENT: '2' })
  bank = await createTestClient(server)
})
afterAll(async () => {
  for (const socket of sockets) socket.close()
  await server?.close()
})

const connect = async (target: TestServer = server, token?: string) => {
  const socket = await openGraphQLSocket(target.url)
  sockets.push(socket)
  if (token) await socket.init(`Bearer ${token}`)
  return socket
}
const openStreams = () => server.services.events.size
const sell = (symbol: string) => ({ symbol, side: 'sell', type: 'limit', quantity: '1', price: '10.00' })

describe('GraphQL over WebSocket (graphql-transport-ws)', () => {
  it('refuses a connection without a valid token: 4403 with the 401 message', async () => {
    for (const [authorization, reason] of [
      [undefined, 'No token provided'],
      ['Bearer nope', 'JWT has an invalid format'],
    ] as const) {
      const socket = await connect()
      socket.send({ type: 'connection_init', payload: authorization ? { authorization } : {} })
      expect(await socket.closed).toEqual({ code: 4403, reason })
      expect(socket.received).toEqual([])
    }
  })

  it('refuses a subscribe before connection_init (4401), and the legacy subscriptions-transport-ws protocol', async () => {
    const early = await connect()
    early.subscribe('1', '{ __typename }')
    expect(await early.closed).toEqual({ code: 4401, reason: 'Unauthorized' })
    // No subprotocol is agreed, so the client gives up before it opens.
    await expect(openGraphQLSocket(server.url, 'graphql-ws')).rejects.toThrow('closed before open')
  })

  it('answers an upgrade on another path 404', async () => {
    await expect(openGraphQLSocket(server.url, 'graphql-transport-ws', '/api/exchange/v1/events')).rejects.toThrow('upgrade refused: 404')
  })

  it('delivers orderEvents as they commit: order.created after an order placed over REST', async () => {
    const client = await createTestClient(server)
    const symbol = await createMarket(server.services.db)
    const socket = await connect(server, client.token)
    // After 0: the new tenant's every event, so nothing depends on when the stream opened.
    socket.subscribe('orders', ORDER_EVENTS, { after: '0' })
    const order = (await placeOrder(server, client.token, sell(symbol))).body
    const first = await socket.waitFor((m) => m.id === 'orders' && m.type === 'next')
    expect(first).toEqual({
      id: 'orders',
      type: 'next',
      payload: { data: { orderEvents: { sequence: '1', type: 'order.created', order: { uid: order.uid, status: 'open' } } } },
    })
    // The client completes it: the stream ends and its slot is free.
    socket.send({ id: 'orders', type: 'complete' })
    await eventually(async () => (openStreams() === 0 ? true : undefined), WITHIN_MS)
    socket.close()
  })

  it('runs queries and mutations over the socket through the same pipeline (limits, errors)', async () => {
    const socket = await connect(server, bank.token)
    socket.subscribe('q', '{ symbols(limit: 1) { limit } }')
    expect(await socket.operation('q')).toEqual([
      { id: 'q', type: 'next', payload: { data: { symbols: { limit: 1 } } } },
      { id: 'q', type: 'complete' },
    ])
    socket.subscribe('m', 'mutation { cancelOrder(uid: "00000000-0000-0000-0000-000000000000") { uid } }')
    const [result] = await socket.operation('m')
    expect(result!.payload.errors[0].extensions.code).toBe('NOT_FOUND')
    // A document over the cost limits is refused before it runs, as over HTTP.
    const deep = `subscription { orderEvents { order { fills(limit: 100) { price quantity } } } }`
    socket.subscribe('deep', deep)
    const [refused] = await socket.operation('deep')
    expect(refused!.type).toBe('error')
    expect(refused!.payload[0].message).toMatch(/cost per event/)
    socket.subscribe('syntax', '{ symbols(')
    expect((await socket.operation('syntax'))[0]!.type).toBe('error')
    socket.close()
  })

  it('holds a stream slot per subscription (MAX_STREAMS_PER_CLIENT), never for a refused one', async () => {
    const client = await createTestClient(server)
    const socket = await connect(server, client.token)
    socket.subscribe('bad', ORDER_EVENTS, { after: 'x' })
    const [bad] = await socket.operation('bad')
    expect(bad!.payload.errors[0].extensions.code).toBe('BAD_USER_INPUT')
    socket.subscribe('a', ORDER_EVENTS)
    socket.subscribe('b', ORDER_EVENTS)
    await eventually(async () => (openStreams() === 2 ? true : undefined), WITHIN_MS)
    socket.subscribe('c', ORDER_EVENTS)
    expect(await socket.operation('c')).toEqual([
      {
        id: 'c',
        type: 'next',
        payload: {
          errors: [
            expect.objectContaining({
              message: 'Too many open event streams: at most 2 per client',
              extensions: expect.objectContaining({ code: 'RATE_LIMITED' }),
            }),
          ],
        },
      },
      { id: 'c', type: 'complete' },
    ])
    // An SSE stream counts against the same slots.
    const sse = await fetch(`${server.url}/api/exchange/v1/events`, { headers: { authorization: `Bearer ${client.token}`, accept: 'text/event-stream' } })
    expect(sse.status).toBe(429)
    await sse.body?.cancel()
    // Closing the socket gives both back.
    socket.close()
    await eventually(async () => (openStreams() === 0 ? true : undefined), WITHIN_MS)
    const again = await connect(server, client.token)
    again.subscribe('d', ORDER_EVENTS)
    again.subscribe('e', ORDER_EVENTS)
    await eventually(async () => (openStreams() === 2 ? true : undefined), WITHIN_MS)
    again.close()
    await eventually(async () => (openStreams() === 0 ? true : undefined), WITHIN_MS)
  })

  it('ends subscriptions with UNAUTHENTICATED "JWT has expired" when the token expires, then closes 4403', async () => {
    const client = await createTestClient(server)
    const socket = await withExpiringToken(server, client, async (token) => {
      const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }
      const socket = await openGraphQLSocket(server.url)
      sockets.push(socket)
      // Subscribed (its stream open) before the token expired; on a host too slow for that, a longer token.
      const subscribed = await socket.init(`Bearer ${token}`).then(
        async () => {
          socket.subscribe('orders', ORDER_EVENTS)
          const opened = await eventually(
            async () => (openStreams() === 1 ? true : socket.received.length > 1 || socket.socket.readyState !== WebSocket.OPEN ? false : undefined),
            WITHIN_MS,
          )
          return opened && Date.now() < exp * 1000
        },
        () => false,
      )
      if (subscribed) return socket
      await socket.closed
      return undefined
    })
    expect(await socket.closed).toEqual({ code: 4403, reason: 'JWT has expired' })
    expect(socket.received.slice(1)).toEqual([
      {
        id: 'orders',
        type: 'next',
        payload: {
          data: null,
          errors: [expect.objectContaining({ message: 'JWT has expired', extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })],
        },
      },
      { id: 'orders', type: 'complete' },
    ])
    expect(openStreams()).toBe(0)
  }, 60_000)

  it('ends them within 5 s of a revocation (client revoke-sessions), then closes 4403', async () => {
    const client = await createTestClient(server)
    const socket = await connect(server, client.token)
    socket.subscribe('orders', ORDER_EVENTS)
    await eventually(async () => (openStreams() === 1 ? true : undefined), WITHIN_MS)
    await revokeSessionsOfClient(server.services.db, client.clientId)
    const closed = await Promise.race([socket.closed, new Promise((_, reject) => setTimeout(() => reject(new Error('not closed')), WITHIN_MS))])
    expect(closed).toEqual({ code: 4403, reason: 'JWT has been revoked' })
    expect(socket.received.at(-2)!.payload.errors[0]).toMatchObject({ message: 'JWT has been revoked', extensions: { code: 'UNAUTHENTICATED' } })
    expect(socket.received.at(-1)).toEqual({ id: 'orders', type: 'complete' })
    expect(openStreams()).toBe(0)
  })

  it('closes a connection that sends no connection_init in time (4408)', async () => {
    const quick = await startTestServer({ CONNECTION_IDLE_SECONDS: '1' })
    try {
      const socket = await connect(quick)
      expect(await socket.closed).toEqual({ code: 4408, reason: 'Connection initialisation timeout' })
    } finally {
      await quick.close()
    }
  })

  it('completes subscriptions and closes sockets 1001 at shutdown', async () => {
    const other = await startTestServer()
    const client = await createTestClient(other)
    const socket = await connect(other, client.token)
    socket.subscribe('orders', ORDER_EVENTS)
    await eventually(async () => (other.services.events.size === 1 ? true : undefined), WITHIN_MS)
    await other.close()
    expect(await socket.closed).toEqual({ code: 1001, reason: 'Going away' })
    expect(socket.received.at(-1)).toEqual({ id: 'orders', type: 'complete' })
  })

  it('bounds messages: over 1 MiB closes 1009, JSON too deep 4400', async () => {
    const big = await connect(server, bank.token)
    big.send({ id: 'x', type: 'subscribe', payload: { query: `{ __typename }${' '.repeat(1024 * 1024)}` } })
    expect((await big.closed).code).toBe(1009)
    const deep = await connect(server, bank.token)
    deep.socket.send(`{"type":"ping","payload":${'['.repeat(100)}${']'.repeat(100)}}`)
    expect(await deep.closed).toEqual({ code: 4400, reason: 'Message JSON is nested too deep or has too many keys' })
  })
})

describe('trusted documents over WebSocket', () => {
  let trusted: TestServer
  beforeAll(async () => {
    trusted = await startTestServer({ GRAPHQL_PERSISTED_DOCUMENTS: MANIFEST, GRAPHQL_TRUSTED_DOCUMENTS_ONLY: 'true' })
  })
  afterAll(async () => {
    await trusted?.close()
  })

  it('runs a documentId (with query ""), refuses text from non-admins, runs an admin\'s', async () => {
    const manifest = (await import(MANIFEST, { with: { type: 'json' } })).default as Record<string, string>
    const [symbolsId] = Object.entries(manifest).find(([, text]) => text.startsWith('query DashboardSymbols'))!
    const [client, admin] = await Promise.all([createTestClient(trusted), createTestClient(trusted, { roles: ['admin'], scopes: ['*:*'] })])
    const socket = await connect(trusted, client.token)
    socket.subscribe('id', '', { limit: 1 }, { documentId: symbolsId })
    const [byId] = await socket.operation('id')
    expect([byId!.type, byId!.payload.errors]).toEqual(['next', undefined])
    socket.subscribe('text', '{ __typename }')
    expect(await socket.operation('text')).toEqual([
      {
        id: 'text',
        type: 'error',
        payload: [
          {
            message: 'Only persisted documents are accepted: send a documentId instead of a query',
            extensions: { code: 'PERSISTED_QUERY_ONLY', error: 'persisted_query_only', http: { status: 400 } },
          },
        ],
      },
    ])
    socket.subscribe('unknown', '', {}, { documentId: `sha256:${'1'.repeat(64)}` })
    expect((await socket.operation('unknown'))[0]!.payload[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND')
    const adminSocket = await connect(trusted, admin.token)
    adminSocket.subscribe('text', '{ __typename }')
    expect(await adminSocket.operation('text')).toEqual([
      { id: 'text', type: 'next', payload: { data: { __typename: 'Query' } } },
      { id: 'text', type: 'complete' },
    ])
  })
})

describe('a WebSocket subscriber that stops reading', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  /** Large events committed in batches, `times` as many bytes as a stream may hold (as test/events-delivery.test.ts does). */
  async function flood(target: TestServer, client: TestClient, times: number): Promise<number> {
    const symbol = await createMarket(target.services.db)
    await placeOrder(target, client.token, sell(symbol))
    const listed = (await target.request('GET', '/api/exchange/v1/events', { token: client.token })).body
    const model = listed.items[0]
    const pad = 'x'.repeat(200_000)
    let sequence = listed.total as number
    for (let batch = 0; batch < Math.ceil((MAX_BUFFERED_BYTES * times) / (pad.length * 4)); batch++) {
      // The stream ended (too far behind): what follows would only be stored, never sent.
      if (batch > 0 && target.services.events.size === 0) break
      for (let i = 0; i < 4; i++) {
        sequence++
        const payload = JSON.stringify({ ...model, sequence, order: { ...model.order, meta_data: { pad } } })
        await sql`insert into tenant_events (tenant_id, sequence, type, created_at, payload)
          values (${client.tenantId}, ${sequence}, 'order.created', timezone('utc', now()), ${payload})`.execute(target.services.db)
      }
      await sql`insert into tenant_event_counters (tenant_id, last_sequence) values (${client.tenantId}, ${sequence})
        on conflict (tenant_id) do update set last_sequence = excluded.last_sequence`.execute(target.services.db)
      target.services.events.wake([tenantStream(client.tenantId)])
      await sleep(20)
    }
    return sequence
  }

  it('is ended with RESYNC and its socket cut, as an SSE one is, and its slot is freed', async () => {
    // The cut comes STREAM_END_GRACE_SECONDS after the stream ended: 1 s, not the 5 s default.
    const slow = await startTestServer({ MAX_STREAMS_PER_CLIENT: '1', STREAM_END_GRACE_SECONDS: '1' })
    try {
      const client = await createTestClient(slow)
      const accepted: Socket[] = []
      slow.running.server.on('connection', (s: Socket) => accepted.push(s))
      const socket = await connect(slow, client.token)
      const clientSide = (socket.socket as unknown as { _socket: Socket })._socket
      const serverSide = accepted.find((s) => s.remotePort === clientSide.localPort)!
      const cut = new Promise<void>((resolve) => serverSide.once('close', () => resolve()))
      socket.subscribe('orders', 'subscription { orderEvents { sequence order { metaData } } }')
      await eventually(async () => (slow.services.events.size === 1 ? true : undefined), WITHIN_MS)
      // The client stops reading: its TCP socket under the WebSocket takes nothing more.
      clientSide.pause()
      const last = await flood(slow, client, 24)
      // The server cuts the connection of a client that reads nothing (after a grace for it to take the end).
      // Within one ping interval: the keep-alive would cut it too, but only two intervals after it opened.
      const keepAliveMs = slow.config.eventsPingSeconds * 1000
      await Promise.race([cut, sleep(keepAliveMs).then(() => Promise.reject(new Error('the connection was not cut')))])
      const metrics = (await slow.request('GET', '/metrics')).text
      expect(metrics).toContain('event_streams_ended_total{reason="resync"} 1\n')
      expect(metrics).toContain('event_streams_open 0\n')
      // Cut, not closed: what it had been sent, in order from the first, and no close frame.
      clientSide.resume()
      expect((await socket.closed).code).toBe(1006)
      const sequences = socket.received.filter((m) => m.type === 'next').map((m) => Number(m.payload.data.orderEvents.sequence))
      expect(sequences).toEqual(sequences.map((_, i) => i + 1))
      expect(sequences.length).toBeLessThan(last)
      // Its slot is free: the client's one stream opens.
      const again = await connect(slow, client.token)
      again.subscribe('orders', ORDER_EVENTS)
      await eventually(async () => (slow.services.events.size === 1 ? true : undefined), WITHIN_MS)
      again.close()
    } finally {
      await slow.close()
    }
  }, 90_000)
})
