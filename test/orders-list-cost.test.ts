import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedDemoMarket } from '../src/modules/exchange/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { ORDERS, placeOrder, usdBuy } from './helpers/orders.ts'
import { withoutBackgroundPolls } from './helpers/background.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let bank: TestClient
let other: TestClient
beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  bank = await createTestClient(server)
  other = await createTestClient(server)
  for (let i = 0; i < 105; i++) expect((await placeOrder(server, bank.token, usdBuy)).status).toBe(201)
  for (let i = 0; i < 3; i++) expect((await placeOrder(server, other.token, { ...usdBuy, side: 'sell' })).status).toBe(201)
})
afterAll(async () => {
  await server?.close()
})

const counted = async (path: string, token: string) => {
  let result!: { res: Awaited<ReturnType<TestServer['request']>>; statements: number }
  await withoutBackgroundPolls(server.services, async () => {
    const before = server.services.database.queryCount()
    const res = await server.request('GET', path, { token })
    result = { res, statements: server.services.database.queryCount() - before }
  })
  return result
}

describe('orders list cost', () => {
  it('answers a page and the tenant total in one statement, pages in created order', async () => {
    const { res, statements } = await counted(`${ORDERS}?limit=100`, bank.token)
    expect(res.status).toBe(200)
    expect(statements).toBe(1)
    expect(res.body.items).toHaveLength(100)
    expect(res.body.total).toBe(105)
    expect(res.body.items.every((o: any) => o.tenant_id === bank.tenantId)).toBe(true)
    const rest = await counted(`${ORDERS}?offset=100`, bank.token)
    expect(rest.statements).toBe(1)
    expect(rest.res.body).toMatchObject({ total: 105, offset: 100 })
    const all = [...res.body.items, ...rest.res.body.items]
    const keys = all.map((o: any) => `${o.created_at} ${o.uid}`)
    expect(keys).toEqual([...keys].sort())
    expect(new Set(all.map((o: any) => o.uid)).size).toBe(105)
    const reversed = await server.request('GET', `${ORDERS}?order_by=-created_at&limit=5`, { token: bank.token })
    expect(reversed.body.items.map((o: any) => o.uid)).toEqual(all.slice(-5).reverse().map((o: any) => o.uid))
  })

  it('counts only what the filters match, and past the end still tells the total', async () => {
    const filtered = await counted(`${ORDERS}?side=sell`, other.token)
    expect(filtered.res.body).toMatchObject({ total: 3 })
    expect((await server.request('GET', `${ORDERS}?side=sell`, { token: bank.token })).body).toMatchObject({ items: [], total: 0 })
    const past = await counted(`${ORDERS}?offset=500`, bank.token)
    expect(past.res.body).toMatchObject({ items: [], total: 105, offset: 500 })
    expect(past.statements).toBe(2)
  })
})
