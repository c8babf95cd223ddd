import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { placeOrder, usdBuy } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let bank: TestClient

beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  bank = await createTestClient(server)
})
afterAll(async () => {
  await server?.close()
})

async function ordersOf(tenantId: string, clientOrderIdPrefix: string) {
  return server.services.db
    .selectFrom('orders')
    .select(['uid', 'client_order_id'])
    .where('tenant_id', '=', tenantId)
    .where('client_order_id', 'like', `${clientOrderIdPrefix}%`)
    .execute()
}

describe('concurrent order submissions', () => {
  it('stores exactly 200 orders for 200 concurrent submissions with distinct ids', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `distinct-${i}`)
    const responses = await Promise.all(ids.map((id) => placeOrder(server, bank.token, { ...usdBuy, client_order_id: id })))
    expect(responses.map((r) => r.status)).toEqual(ids.map(() => 201))
    expect(new Set(responses.map((r) => r.body.uid)).size).toBe(200)
    const stored = await ordersOf(bank.tenantId, 'distinct-')
    expect(stored).toHaveLength(200)
    expect(new Set(stored.map((o) => o.client_order_id))).toEqual(new Set(ids))
  })

  it('stores exactly one order for 50 concurrent submissions of one id, and answers each with it', async () => {
    const body = { ...usdBuy, client_order_id: 'repeated-1' }
    const responses = await Promise.all(Array.from({ length: 50 }, () => placeOrder(server, bank.token, body)))
    const statuses = responses.map((r) => r.status)
    expect(statuses.every((s) => s === 200 || s === 201)).toBe(true)
    expect(statuses.filter((s) => s === 201)).toHaveLength(1)
    expect(new Set(responses.map((r) => r.body.uid)).size).toBe(1)
    const stored = await ordersOf(bank.tenantId, 'repeated-1')
    expect(stored).toHaveLength(1)
    expect(stored[0]!.uid).toBe(responses[0]!.body.uid)
  })

  it('answers 409 to every concurrent submission of the id with a different body, storing only the winner', async () => {
    const bodies = Array.from({ length: 30 }, (_, i) => ({ ...usdBuy, quantity: String(1000 + 10 * (i % 2)), client_order_id: 'contested-1' }))
    const responses = await Promise.all(bodies.map((body) => placeOrder(server, bank.token, body)))
    const winner = responses.find((r) => r.status === 201)!
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1)
    for (const [i, res] of responses.entries()) {
      if (res === winner) continue
      const sameBody = bodies[i]!.quantity === winner.body.quantity
      expect(res.status).toBe(sameBody ? 200 : 409)
    }
    expect(await ordersOf(bank.tenantId, 'contested-1')).toHaveLength(1)
  })
})
