import { connect, type Socket } from 'node:net'

import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { MAX_BUFFERED_BYTES } from '../src/modules/exchange/events/event-streams.ts'
import { EVENTS_CHANNEL, tenantStream } from '../src/modules/exchange/events/events.repository.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { onPostgres } from './helpers/database.ts'
import { openSse } from './helpers/event-stream.ts'
import { createMarket } from './helpers/markets.ts'
import { placeOrder } from './helpers/orders.ts'
import { type ServerProcess, startServerProcess } from './helpers/process.ts'
import { startTestServer, TEST_BASE_URL, type TestServer } from './helpers/server.ts'

const EVENTS = '/api/exchange/v1/events'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Large events committed in batches, each batch a wake-up, up to `times` as many bytes as a stream
 * may hold, until the server's streams have ended: copies of a real one, padded (a JSON list
 * resuming from them is checked against the document). Returns the last sequence.
 */
async function flood(server: TestServer, client: TestClient, times: number): Promise<number> {
  const symbol = await createMarket(server.services.db)
  await placeOrder(server, client.token, { symbol, side: 'sell', type: 'limit', quantity: '1', price: '10.00' })
  const listed = (await server.request('GET', EVENTS, { token: client.token })).body
  const model = listed.items[0]
  const pad = 'x'.repeat(200_000)
  const batches = Math.ceil((MAX_BUFFERED_BYTES * times) / (pad.length * 4))
  // After the order's own events (its order.created and its hold's balance event).
  let sequence = listed.total as number
  for (let batch = 0; batch < batches; batch++) {
    // The stream ended (too far behind): what follows would only be stored, never sent.
    if (batch > 0 && server.services.events.size === 0) break
    for (let i = 0; i < 4; i++) {
      sequence++
      const payload = JSON.stringify({ ...model, sequence, order: { ...model.order, meta_data: { pad } } })
      await sql`insert into tenant_events (tenant_id, sequence, type, created_at, payload)
        values (${client.tenantId}, ${sequence}, 'order.created', timezone('utc', now()), ${payload})`.execute(server.services.db)
    }
    await sql`insert into tenant_event_counters (tenant_id, last_sequence) values (${client.tenantId}, ${sequence})
      on conflict (tenant_id) do update set last_sequence = excluded.last_sequence`.execute(server.services.db)
    server.services.events.wake([tenantStream(client.tenantId)])
    await sleep(20)
  }
  return sequence
}

/**
 * Until the server's one stream has caught up and follows wake-ups: a flood must meet a live
 * stream, which is ended once too far behind, not one still catching up, which waits for its
 * client instead (a guessed pause was too short on a busy host, and the stream never ended).
 */
async function untilLive(server: TestServer): Promise<void> {
  while (server.services.events.live === 0) await sleep(10)
}

describe('a slow consumer', () => {
  let server: TestServer
  let client: TestClient
  beforeAll(async () => {
    server = await startTestServer()
    client = await createTestClient(server)
  })
  afterAll(async () => {
    await server?.close()
  })

  it('that stops reading gets event: resync once too far behind, after every event it was sent, then the stream ends', async () => {
    const url = new URL(server.url)
    const socket = connect(Number(url.port), url.hostname)
    const chunks: Buffer[] = []
    // The response's last chunk (the connection itself may stay open for the next request).
    const ended = new Promise<void>((resolve) => socket.on('data', () => Buffer.concat(chunks).subarray(-7).toString() === '\r\n0\r\n\r\n' && resolve()))
    socket.prependListener('data', (chunk) => chunks.push(chunk))
    socket.write(`GET ${EVENTS} HTTP/1.1\r\nHost: exchange.test\r\nAuthorization: Bearer ${client.token}\r\nAccept: text/event-stream\r\n\r\n`)
    while (!Buffer.concat(chunks).includes('\r\n\r\n')) await sleep(10)
    await untilLive(server)
    socket.pause()
    const sequence = await flood(server, client, 12)
    socket.resume()
    await ended
    const text = Buffer.concat(chunks).toString()
    const body = text.slice(text.indexOf('\r\n\r\n') + 4)
    const ids = [...body.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))
    // Every event sent arrives, in order, from the first; the stream stopped before the last.
    expect(ids).toEqual(ids.map((_, i) => i + 1))
    expect(ids.length).toBeGreaterThan(1)
    expect(ids.length).toBeLessThan(sequence)
    const resync = /event: resync\r?\n(?:[^\n]*\r?\n)*?data: (.*)\r?\n/.exec(body)
    expect(resync).not.toBeNull()
    expect(JSON.parse(resync![1]!)).toEqual({ message: 'The stream fell too far behind: resume after the sequence given', after: ids.at(-1) })
    expect((await server.request('GET', '/metrics')).text).toContain('event_streams_ended_total{reason="resync"} 1\n')
    // Resuming from there delivers the rest.
    const rest = await server.request('GET', `${EVENTS}?after=${ids.at(-1)}&limit=100`, { token: client.token })
    expect(rest.body.items[0].sequence).toBe(ids.at(-1)! + 1)
    expect(rest.body.total).toBe(sequence - ids.at(-1)!)
    socket.destroy()
  }, 60_000)
})

describe('a GraphQL subscriber that stops reading', () => {
  let server: TestServer
  let client: TestClient
  beforeAll(async () => {
    // The cut comes STREAM_END_GRACE_SECONDS after the stream ended: 1 s, not the 5 s default.
    server = await startTestServer({ MAX_STREAMS_PER_CLIENT: '1', STREAM_END_GRACE_SECONDS: '1' })
    client = await createTestClient(server)
  })
  afterAll(async () => {
    await server?.close()
  })

  it('is ended with RESYNC and its connection cut, as an SSE one is, and its slot is freed', async () => {
    const accepted: Socket[] = []
    const onConnection = (socket: Socket) => accepted.push(socket)
    server.running.server.on('connection', onConnection)
    const url = new URL(server.url)
    const socket = connect(Number(url.port), url.hostname)
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    const clientEnded = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    socket.on('error', () => {})
    const body = JSON.stringify({ query: 'subscription { orderEvents { sequence order { metaData } } }' })
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: exchange.test\r\nAuthorization: Bearer ${client.token}\r\nAccept: text/event-stream\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    )
    while (!Buffer.concat(chunks).includes('\r\n\r\n')) await sleep(10)
    expect(Buffer.concat(chunks).toString('latin1')).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*content-type: text\/event-stream/i)
    const serverSide = accepted.find((s) => s.remotePort === socket.localPort)!
    server.running.server.off('connection', onConnection)
    expect(serverSide).toBeDefined()
    const cut = new Promise<void>((resolve) => serverSide.once('close', () => resolve()))
    await untilLive(server)
    socket.pause()
    const sequence = await flood(server, client, 24)
    // The server closes the connection of a client that reads nothing (after a grace for it to take the end).
    await Promise.race([cut, sleep(30_000).then(() => Promise.reject(new Error('the connection was not closed')))])
    const metrics = (await server.request('GET', '/metrics')).text
    expect(metrics).toContain('event_streams_ended_total{reason="resync"} 1\n')
    expect(metrics).toContain('event_streams_open 0\n')
    // Its slot is free: the client's one stream opens.
    const again = await openSse(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'subscription { orderEvents { sequence } }' }),
    })
    expect(again.status).toBe(200)
    await again.waitFor((m) => m.comment !== undefined)
    again.close()
    // What reached the client before the cut: events in order from the first, not all of them, and no end of the response.
    socket.resume()
    await clientEnded
    const text = Buffer.concat(chunks).toString()
    const sequences = [...text.matchAll(/data: (\{.*\})\n\n/g)].map((m) => Number(JSON.parse(m[1]!).data.orderEvents.sequence))
    expect(sequences).toEqual(sequences.map((_, i) => i + 1))
    expect(sequences.length).toBeLessThan(sequence)
    expect(text).not.toContain('event: complete')
  }, 90_000)
})

// Events committed by one process reach streams on another (docs/events.md, "Delivery").
describe.skipIf(!onPostgres)('two processes on one PostgreSQL', () => {
  let a: TestServer
  let b: ServerProcess
  let alice: TestClient
  let bob: TestClient
  beforeAll(async () => {
    a = await startTestServer()
    b = await startServerProcess({ DATABASE_URL: a.database.databaseUrl!, DATA_DIR: a.database.dataDir, PUBLIC_BASE_URL: TEST_BASE_URL })
    ;[alice, bob] = await Promise.all([createTestClient(a), createTestClient(a)])
  }, 90_000)
  afterAll(async () => {
    await b?.stop()
    await a?.close()
  })

  it('delivers an order placed on one process to a stream on the other within a second, in order, to its tenant only', async () => {
    const symbol = await createMarket(a.services.db)
    const aliceStream = await openSse(`${b.url}${EVENTS}`, { headers: { authorization: `Bearer ${alice.token}` } })
    const bobStream = await openSse(`${b.url}${EVENTS}`, { headers: { authorization: `Bearer ${bob.token}` } })
    const market = await openSse(`${b.url}/api/exchange/v1/symbols/${symbol}/events`, { headers: { authorization: `Bearer ${alice.token}` } })
    await sleep(200)
    const latencies: number[] = []
    for (let i = 0; i < 5; i++) {
      const order = (await placeOrder(a, alice.token, { symbol, side: 'sell', type: 'limit', quantity: '1', price: `${10 + i}.00` })).body
      const answered = Date.now()
      const message = await aliceStream.waitFor((m) => m.data !== undefined && JSON.parse(m.data).order?.uid === order.uid, 1000)
      latencies.push(Date.now() - answered)
      expect(message.event).toBe('order.created')
    }
    const ids = aliceStream.received.filter((m) => m.id).map((m) => Number(m.id))
    expect(ids).toEqual(ids.map((_, i) => ids[0]! + i))
    expect(Math.max(...latencies)).toBeLessThan(1000)
    const books = await market.messages(5)
    expect(books.map((m) => m.event)).toEqual(['book', 'book', 'book', 'book', 'book'])
    expect(bobStream.received.filter((m) => m.data)).toEqual([])
    for (const stream of [aliceStream, bobStream, market]) stream.close()
  })

  it("wakes other processes with a NOTIFY in the pass's transaction, naming the streams it wrote to", async () => {
    const symbol = await createMarket(a.services.db)
    const listener = new pg.Client({ connectionString: a.database.databaseUrl! })
    await listener.connect()
    try {
      const payloads: string[] = []
      listener.on('notification', (message) => payloads.push(message.payload ?? ''))
      await listener.query(`LISTEN ${EVENTS_CHANNEL}`)
      await placeOrder(a, alice.token, { symbol, side: 'sell', type: 'limit', quantity: '1', price: '10.00' })
      // Refused: nothing written, nothing announced.
      await placeOrder(a, alice.token, { symbol, side: 'sell', type: 'limit', quantity: '1', price: '10.001' })
      await sleep(300)
      expect(payloads).toHaveLength(1)
      const [instance, ...keys] = payloads[0]!.split(' ')
      expect(instance).toMatch(/^[0-9a-f]{8}$/)
      expect(keys.sort()).toEqual([`m:${symbol}`, tenantStream(alice.tenantId)].sort())
    } finally {
      await listener.end()
    }
  })
})
