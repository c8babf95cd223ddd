import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { add, compareDecimals, decimalFromStore, type DecimalValue, formatDecimal, ZERO } from '../src/core/decimal.ts'
import { setSymbolFees } from '../src/modules/exchange/symbols/symbol-admin.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { createMarket } from './helpers/markets.ts'
import { placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

/**
 * Fees on fills (docs/accounts.md, "Fees on fills"): every fill says what its order paid for it,
 * and that is exactly the fill's `fee` ledger entry, on REST, GraphQL and the tenant stream.
 */
let server: TestServer
let alice: TestClient
let bob: TestClient

beforeAll(async () => {
  server = await startTestServer()
  ;[alice, bob] = await Promise.all([createTestClient(server), createTestClient(server)])
})
afterAll(async () => {
  await server?.close()
})

/** A small deterministic generator (mulberry32), so a failing sequence can be replayed. */
function generator(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const sum = (values: string[]) => formatDecimal(values.map(decimalFromStore).reduce<DecimalValue>(add, ZERO))

async function allFills(client: TestClient, symbol: string): Promise<any[]> {
  const items: any[] = []
  for (let offset = 0; ; offset += 100) {
    const res = await server.request('GET', `/api/exchange/v1/fills?symbol=${symbol}&limit=100&offset=${offset}&order_by=created_at`, { token: client.token })
    expect(res.status).toBe(200)
    items.push(...res.body.items)
    if (items.length >= res.body.total) return items
  }
}

async function allEvents(client: TestClient): Promise<any[]> {
  const events: any[] = []
  for (;;) {
    const after = events.length ? `&after=${events.at(-1).sequence}` : ''
    const res = await server.request('GET', `/api/exchange/v1/events?limit=100${after}`, { token: client.token })
    expect(res.status).toBe(200)
    if (res.body.items.length === 0) return events
    events.push(...res.body.items)
  }
}

describe('fees on fills', () => {
  it('every fill carries its fee ledger entry, for a generated sequence of crossing orders (REST, GraphQL, events)', async () => {
    const symbol = await createMarket(server.services.db)
    const quote = symbol.split('-')[1]!
    await setSymbolFees(server.services.db, symbol, '0.1', '0.25')
    const seed = Date.now() % 100000
    const random = generator(seed)
    for (let i = 0; i < 40; i++) {
      const [client, side] = random() < 0.5 ? [alice, 'sell'] : [bob, 'buy']
      const price = (9 + Math.floor(random() * 300) / 100).toFixed(2)
      const quantity = (0.01 + Math.floor(random() * 500) / 100).toFixed(2)
      const res = await placeOrder(server, client.token, { symbol, side, type: 'limit', quantity, price })
      expect(res.status, `seed ${seed}: ${JSON.stringify(res.body)}`).toBe(201)
    }
    const { rows: entries } = await sql<{ tenant_id: string; order_uid: string; trade_uid: string; fee: string }>`
      select tenant_id, order_uid, trade_uid, (-amount)::text as fee from ledger_entries
      where kind = 'fee' and order_uid in (select uid from orders where symbol = ${symbol})`.execute(server.services.db)
    const ledger = new Map(entries.map((e) => [`${e.order_uid} ${e.trade_uid}`, e.fee]))

    let fills = 0
    const paid: Record<'maker' | 'taker', string[]> = { maker: [], taker: [] }
    for (const client of [alice, bob]) {
      const items = await allFills(client, symbol)
      fills += items.length
      for (const fill of items) {
        const entry = ledger.get(`${fill.order_uid} ${fill.trade_uid}`) ?? '0'
        expect(compareDecimals(decimalFromStore(fill.fee), decimalFromStore(entry)), `seed ${seed}: fill ${fill.uid}: ${fill.fee} ≠ ${entry}`).toBe(0)
        expect(fill.fee).toMatch(/^\d+\.\d{2}$/)
        expect(fill.fee_currency).toBe(quote)
        expect(fill.liquidity).toBe(fill.role)
        paid[fill.liquidity as 'maker' | 'taker'].push(fill.fee)
      }
      // Each tenant's fees add up to what its fee entries took from its quote account.
      const own = entries.filter((e) => e.tenant_id === client.tenantId).map((e) => e.fee)
      expect(sum(items.map((f) => f.fee)), `seed ${seed}`).toBe(sum(own))

      // GraphQL serves the same fees.
      const res = await server.graphql<any, any>(
        `query($symbol: String) { fills(filter: { symbol: $symbol }, limit: 100, orderBy: { field: created_at, direction: asc }) {
           items { uid fee feeCurrency liquidity } } }`,
        { symbol },
        { token: client.token },
      )
      expect(res.errors).toBeUndefined()
      expect(res.data.fills.items).toEqual(items.slice(0, 100).map((f) => ({ uid: f.uid, fee: f.fee, feeCurrency: f.fee_currency, liquidity: f.liquidity })))

      // The tenant stream's fill events carry the same record.
      const byUid = new Map(items.map((f) => [f.uid, f]))
      const fillEvents = (await allEvents(client)).filter((e: any) => e.type === 'fill' && byUid.has(e.fill.uid))
      expect(fillEvents.length).toBe(items.length)
      for (const event of fillEvents) expect(event.fill).toEqual(byUid.get(event.fill.uid))
    }
    expect(fills, `seed ${seed}`).toBeGreaterThan(0)
    // Both rates were charged: the sequence had fills of both kinds with a fee.
    expect(
      paid.maker.some((f) => decimalFromStore(f).coefficient > 0n),
      `seed ${seed}`,
    ).toBe(true)
    expect(
      paid.taker.some((f) => decimalFromStore(f).coefficient > 0n),
      `seed ${seed}`,
    ).toBe(true)
    expect(sum([...paid.maker, ...paid.taker])).toBe(sum(entries.map((e) => e.fee)))
  })
})
