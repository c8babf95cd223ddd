import { crc32 } from 'node:zlib'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { marketStream, readEvents, tenantStream } from '../src/modules/exchange/events/events.repository.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDERS, placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/

let server: TestServer
let alice: TestClient
let bob: TestClient

beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  ;[alice, bob] = await Promise.all([createTestClient(server), createTestClient(server)])
})
afterAll(async () => {
  await server?.close()
})

const bodies = async (events: Promise<{ sequence: number; type: string; payload: string }[]>) =>
  (await events).map((e) => {
    const body = JSON.parse(e.payload)
    // The stored columns say what the body says.
    expect([body.sequence, body.type]).toEqual([e.sequence, e.type])
    expect(body.created_at).toMatch(TIMESTAMP)
    return body
  })

describe('events written by matching passes', () => {
  it("numbers each tenant's and each symbol's events without gaps, in the pass that made the change", async () => {
    const symbol = await createMarket(server.services.db)
    const tenantBefore = async (client: TestClient) => (await readEvents(server.services.db, tenantStream(client.tenantId), 0, 10_000)).length
    const [aliceFrom, bobFrom] = [await tenantBefore(alice), await tenantBefore(bob)]
    const ask = (await placeOrder(server, alice.token, { symbol, side: 'sell', type: 'limit', quantity: '2', price: '10.00' })).body
    const bid = (await placeOrder(server, bob.token, { symbol, side: 'buy', type: 'market', quantity: '3' })).body
    expect((await server.request('DELETE', `${ORDERS}/${ask.uid}`, { token: alice.token })).status).toBe(409)

    const [base, quote] = symbol.split('-')
    // Each pass's balance events follow its order events, one per account it changed (base before quote).
    const balance = (e: any) => [e.type, e.account.currency, e.account.hold, e.entry?.kind ?? null]
    const aliceEvents = await bodies(readEvents(server.services.db, tenantStream(alice.tenantId), aliceFrom, 100))
    expect(
      aliceEvents.map((e) => [
        e.sequence - aliceFrom,
        ...(e.order ? [e.type, e.order.uid, e.order.status, e.order.filled_quantity, e.fill?.role ?? null] : balance(e)),
      ]),
    ).toEqual([
      [1, 'order.created', ask.uid, 'open', '0', null],
      [2, 'balance', base, '2.00', null],
      [3, 'fill', ask.uid, 'filled', '2.00', 'maker'],
      [4, 'order.updated', ask.uid, 'filled', '2.00', null],
      [5, 'balance', base, '0.00', 'trade'],
      [6, 'balance', quote, '0.00', 'trade'],
    ])
    const bobEvents = await bodies(readEvents(server.services.db, tenantStream(bob.tenantId), bobFrom, 100))
    expect(
      bobEvents.map((e) => [
        e.sequence - bobFrom,
        ...(e.order ? [e.type, e.order.status, e.order.filled_quantity, e.order.cancel_reason, e.fill?.role ?? null] : balance(e)),
      ]),
    ).toEqual([
      [1, 'order.created', 'open', '0', null, null],
      [2, 'fill', 'partially_filled', '2.00', null, 'taker'],
      [3, 'order.updated', 'cancelled', '2.00', 'unfilled', null],
      [4, 'balance', base, '0.00', 'trade'],
      [5, 'balance', quote, '0.00', 'trade'],
    ])
    // The last event of an order carries the order as the POST answered it.
    expect(bobEvents[2].order).toEqual(bid)
    expect(bobEvents[1].fill).toEqual({
      uid: expect.any(String),
      created_at: bid.created_at,
      order_uid: bid.uid,
      trade_uid: expect.any(String),
      symbol,
      side: 'buy',
      role: 'taker',
      price: '10.00',
      quantity: '2.00',
      fee: '0.00',
      fee_currency: quote,
      liquidity: 'taker',
    })

    const market = await bodies(readEvents(server.services.db, marketStream(symbol), 0, 100))
    expect(market.map((e) => [e.sequence, e.type, e.trade ?? e.book ?? e.candle])).toEqual([
      [1, 'book', { side: 'sell', price: '10.00', quantity: '2.00', orders: 1, checksum: crc32('10.00:2.00|') }],
      [2, 'trade', expect.objectContaining({ symbol, price: '10.00', quantity: '2.00', taker_side: 'buy', sequence: 2 })],
      [3, 'candle', expect.objectContaining({ interval: '1m', open: '10.00', close: '10.00', volume: '2.00', quote_volume: '20.00', trade_count: 1 })],
      [4, 'book', { side: 'sell', price: '10.00', quantity: '0', orders: 0, checksum: crc32('|') }],
    ])
    expect((await server.request('GET', `/api/exchange/v1/symbols/${symbol}/book`, { token: alice.token })).body.sequence).toBe(4)
  })

  it("follows the fills of an order taking several makers with one order.updated, and each maker's fill with its own", async () => {
    const symbol = await createMarket(server.services.db)
    const from = (await readEvents(server.services.db, tenantStream(bob.tenantId), 0, 10_000)).length
    const asks = []
    for (const price of ['10.00', '11.00'])
      asks.push((await placeOrder(server, alice.token, { symbol, side: 'sell', type: 'limit', quantity: '1', price })).body)
    const bid = (await placeOrder(server, bob.token, { symbol, side: 'buy', type: 'limit', quantity: '3', price: '11.00' })).body
    expect(bid.status).toBe('partially_filled')
    const orderEvents = (events: any[]) =>
      events.filter((e) => e.order?.symbol === symbol).map((e) => [e.type, e.order.uid, e.order.status, e.order.filled_quantity])
    expect(orderEvents(await bodies(readEvents(server.services.db, tenantStream(bob.tenantId), from, 100)))).toEqual([
      ['order.created', bid.uid, 'open', '0'],
      ['fill', bid.uid, 'partially_filled', '1.00'],
      ['fill', bid.uid, 'partially_filled', '2.00'],
      ['order.updated', bid.uid, 'partially_filled', '2.00'],
    ])
    const aliceEvents = orderEvents(await bodies(readEvents(server.services.db, tenantStream(alice.tenantId), 0, 10_000)))
    expect(aliceEvents.slice(-4)).toEqual([
      ['fill', asks[0].uid, 'filled', '1.00'],
      ['order.updated', asks[0].uid, 'filled', '1.00'],
      ['fill', asks[1].uid, 'filled', '1.00'],
      ['order.updated', asks[1].uid, 'filled', '1.00'],
    ])
  })

  it('writes a cancel as order.updated and a book event, and nothing for a refused or repeated order', async () => {
    const symbol = await createMarket(server.services.db)
    const order = (await placeOrder(server, alice.token, { symbol, side: 'buy', type: 'limit', quantity: '1', price: '5.00', client_order_id: 'ev-1' })).body
    expect((await placeOrder(server, alice.token, { symbol, side: 'buy', type: 'limit', quantity: '1', price: '5.00', client_order_id: 'ev-1' })).status).toBe(
      200,
    )
    expect((await placeOrder(server, alice.token, { symbol, side: 'buy', type: 'limit', quantity: '0.001', price: '5.00' })).status).toBe(422)
    expect((await server.request('DELETE', `${ORDERS}/${order.uid}`, { token: alice.token })).status).toBe(200)
    const events = await bodies(readEvents(server.services.db, tenantStream(alice.tenantId), 0, 10_000))
    const mine = events.filter((e) => e.order?.symbol === symbol)
    expect(mine.map((e) => [e.type, e.order.status, e.order.cancel_reason])).toEqual([
      ['order.created', 'open', null],
      ['order.updated', 'cancelled', 'user'],
    ])
    // Gapless over everything the tenant did in this file.
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1))
    const market = await bodies(readEvents(server.services.db, marketStream(symbol), 0, 100))
    expect(market.map((e) => [e.sequence, e.type, e.book])).toEqual([
      [1, 'book', { side: 'buy', price: '5.00', quantity: '1.00', orders: 1, checksum: crc32('|5.00:1.00') }],
      [2, 'book', { side: 'buy', price: '5.00', quantity: '0', orders: 0, checksum: crc32('|') }],
    ])
  })
})
