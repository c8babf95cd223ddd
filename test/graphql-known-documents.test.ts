import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { counterValue } from '../src/observability/metrics.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { placeOrder, usdBuy } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let bank: TestClient
let other: TestClient
let bankOrders: string[]
let otherOrder: string
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_API_PER_MIN: '1000' })
  await seedDemoMarket(server.services.db)
  bank = await createTestClient(server)
  other = await createTestClient(server)
  bankOrders = []
  for (const price of ['1050000', '1049000', '1048000', '1047000']) {
    const res = await placeOrder(server, bank.token, { ...usdBuy, price, client_order_id: `known-${price}` })
    expect(res.status).toBe(201)
    bankOrders.push(res.body.uid)
  }
  const res = await placeOrder(server, other.token, { ...usdBuy, quantity: '2000' })
  expect(res.status).toBe(201)
  otherOrder = res.body.uid
})
afterAll(async () => {
  await server?.close()
})

const knownAnswers = () => counterValue(server.services.metrics.graphqlKnownDocuments)
const compiledRuns = () => counterValue(server.services.metrics.graphqlKnownDocumentRuns, { executor: 'compiled' })

interface Sent {
  status: number
  text: string
  remaining: string | null
  /** Whether the answer was given before Yoga, as a known document's. */
  known: boolean
}

async function send(body: string, token: string | null): Promise<Sent> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (token) headers.authorization = `Bearer ${token}`
  const before = await knownAnswers()
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers, body })
  const text = await res.text()
  return { status: res.status, text, remaining: res.headers.get('ratelimit-remaining'), known: (await knownAnswers()) - before === 1 }
}

// Every kind of output the orders list has: enums, Decimal and DateTime scalars, JSON, nulls, a nested symbol.
const ORDERS = `query Mine($limit: Int, $offset: Int, $status: [OrderStatus!]) {
  orders(limit: $limit, offset: $offset, filter: { status: $status }, orderBy: { field: created_at, direction: asc }) {
    total offset limit
    items {
      uid createdAt updatedAt isDeleted metaData userId tenantId clientOrderId symbol side type quantity price
      status filledQuantity averagePrice cancelReason timeInForce postOnly
      market { symbol tickSize pricePrecision priceBand { min max } properties { symbol precision isCrypto name { fa en } } }
    }
  }
}`
/** The same request with a parameter only Yoga reads (`extensions`): Yoga's own answer. */
const yogaBody = (query: string, variables: object) => JSON.stringify({ query, variables, extensions: {} })
const knownBody = (query: string, variables: object) => JSON.stringify({ query, variables })

describe('known GraphQL documents answered before Yoga', () => {
  it('answers a query it has answered before, with any variables, exactly as Yoga does', async () => {
    const variables = [
      { limit: 2, offset: 0 },
      { limit: 2, offset: 2 },
      { limit: 100, offset: 0 },
      { limit: 3, offset: 1, status: ['open'] },
      { limit: 1, offset: 3 },
      { limit: 5, offset: 0, status: ['filled', 'cancelled'] },
    ]
    const known: boolean[] = []
    const compiledBefore = await compiledRuns()
    for (const v of variables) {
      const reference = await send(yogaBody(ORDERS, v), bank.token)
      const sent = await send(knownBody(ORDERS, v), bank.token)
      expect(reference.status).toBe(200)
      expect(JSON.parse(reference.text).errors).toBeUndefined()
      expect(reference.known).toBe(false)
      expect(sent.status).toBe(200)
      expect(sent.text).toBe(reference.text)
      known.push(sent.known)
    }
    // The first is Yoga's (and makes the document known); the next two run uncompiled, the rest compiled.
    expect(known).toEqual([false, true, true, true, true, true])
    expect((await compiledRuns()) - compiledBefore).toBe(3)
    expect(JSON.parse((await send(knownBody(ORDERS, { limit: 100 }), bank.token)).text).data.orders.total).toBe(bankOrders.length)
  })

  it('never compiles a document of more than 200 fields as executed, a fragment spread counting each time', async () => {
    // 12 spreads of a 20-field fragment: 4,500 bytes of text, 12 × 21 + 12 fields as executed.
    const fragment =
      'fragment F on Order { uid createdAt updatedAt isDeleted metaData userId tenantId clientOrderId symbol side type quantity price status filledQuantity averagePrice cancelReason timeInForce postOnly market { symbol } }'
    const large = `query Large { ${Array.from({ length: 12 }, (_, i) => `o${i}: orders(limit: 2) { items { ...F } }`).join(' ')} } ${fragment}`
    const small = `query Small { ${Array.from({ length: 2 }, (_, i) => `o${i}: orders(limit: 2) { items { ...F } }`).join(' ')} } ${fragment}`
    for (const [query, compiled] of [
      [large, 0],
      [small, 2],
    ] as const) {
      const before = await compiledRuns()
      for (let i = 0; i < 5; i++) {
        const sent = await send(knownBody(query, {}), bank.token)
        expect([sent.status, JSON.parse(sent.text).errors]).toEqual([200, undefined])
      }
      // The first run is Yoga's, the next two uncompiled, then compiled when small enough.
      expect((await compiledRuns()) - before).toBe(compiled)
    }
  })

  it("never answers one tenant's request with another's data, even for the same bytes", async () => {
    const body = knownBody(ORDERS, { limit: 100, offset: 0 })
    const first = await send(body, bank.token)
    const otherTenant = await send(body, other.token)
    const reference = await send(yogaBody(ORDERS, { limit: 100, offset: 0 }), other.token)
    expect(first.known).toBe(true)
    expect(otherTenant.known).toBe(true)
    expect(otherTenant.text).toBe(reference.text)
    const items = JSON.parse(otherTenant.text).data.orders.items as { uid: string }[]
    expect(items.map((o) => o.uid)).toEqual([otherOrder])
  })

  it('hands a result with errors to Yoga, which answers it as it always did', async () => {
    const ONE = 'query One($uid: ID!) { order(uid: $uid) { uid status quantity } }'
    for (const uid of bankOrders) expect((await send(knownBody(ONE, { uid }), bank.token)).status).toBe(200)
    const forbidden = await send(knownBody(ONE, { uid: otherOrder }), bank.token)
    const reference = await send(yogaBody(ONE, { uid: otherOrder }), bank.token)
    expect(forbidden.known).toBe(false)
    expect(forbidden.status).toBe(reference.status)
    expect(forbidden.text).toBe(reference.text)
    expect(JSON.parse(forbidden.text).errors[0].extensions.code).toBe('FORBIDDEN')
  })

  it('counts each request once against its API allowance, as Yoga does', async () => {
    const body = knownBody(ORDERS, { limit: 1 })
    const remaining: number[] = []
    for (let i = 0; i < 4; i++) {
      const sent = await send(body, bank.token)
      expect(sent.known).toBe(true)
      remaining.push(Number(sent.remaining))
    }
    const reference = [Number((await send(yogaBody(ORDERS, { limit: 1 }), bank.token)).remaining)]
    for (let i = 1; i < 4; i++) expect(remaining[i]).toBe(remaining[i - 1]! - 1)
    expect(reference[0]).toBe(remaining[3]! - 1)
  })

  it('leaves callers without a token, or without the scope, to Yoga', async () => {
    const body = knownBody(ORDERS, { limit: 2 })
    const anonymous = await send(body, null)
    const anonymousReference = await send(yogaBody(ORDERS, { limit: 2 }), null)
    expect(anonymous.known).toBe(false)
    expect([anonymous.status, anonymous.text]).toEqual([anonymousReference.status, anonymousReference.text])

    const reader = await createTestClient(server, { scopes: ['symbols:read'] })
    const unscoped = await send(body, reader.token)
    const unscopedReference = await send(yogaBody(ORDERS, { limit: 2 }), reader.token)
    expect(unscoped.known).toBe(false)
    expect([unscoped.status, unscoped.text]).toEqual([unscopedReference.status, unscopedReference.text])
    expect(JSON.parse(unscoped.text).errors[0].extensions.code).toBe('FORBIDDEN')
  })
})

describe('documents of a known form answered before Yoga', () => {
  // ORDERS with aliases at the top and below a list, and in a fragment.
  const aliased = (mine: string, item: string, when: string, comment = '') =>
    `query Aliased($limit: Int) {${comment} ${mine}: orders(limit: $limit, orderBy: { field: created_at, direction: asc }) { total items { ${item}: uid ...When } } }
     fragment When on Order { ${when}: createdAt status }`

  it('answers other aliases, spacing and comments of a known document exactly as Yoga does', async () => {
    expect((await send(knownBody(aliased('mine', 'id', 'at'), { limit: 3 }), bank.token)).known).toBe(false)
    const variants = [
      aliased('board', 'key', 'since', '\n  # a dashboard\n'),
      aliased('__proto__', 'x', 'y'),
      aliased('mine', 'id', 'at').replace(/ /g, '\n,  '),
    ]
    for (const [i, query] of variants.entries()) {
      const variables = { limit: i + 1 }
      const sent = await send(knownBody(query, variables), bank.token)
      const reference = await send(yogaBody(query, variables), bank.token)
      expect([sent.known, reference.known]).toEqual([true, false])
      expect(sent.status).toBe(200)
      expect(JSON.parse(reference.text).errors).toBeUndefined()
      expect(sent.text).toBe(reference.text)
    }
    // Another tenant's request of that form is answered with its own orders.
    const otherTenant = await send(knownBody(aliased('theirs', 'id', 'at'), { limit: 100 }), other.token)
    expect(otherTenant.known).toBe(true)
    expect(JSON.parse(otherTenant.text).data.theirs.items.map((o: { id: string }) => o.id)).toEqual([otherOrder])
  })

  it('leaves to Yoga a document whose aliases are paired otherwise, and answers its error as Yoga does', async () => {
    const known = '{ a: orders(limit: 1) { total } b: order(uid: "00000000-0000-0000-0000-000000000000") { uid } }'
    await send(knownBody(known, {}), bank.token)
    expect((await send(knownBody(known.replace('a:', 'c:'), {}), bank.token)).known).toBe(true)
    // One key for two fields: refused by validation, so never of the known form.
    const clashing = known.replace('b:', 'a:')
    const sent = await send(knownBody(clashing, {}), bank.token)
    const reference = await send(yogaBody(clashing, {}), bank.token)
    expect(sent.known).toBe(false)
    expect([sent.status, sent.text]).toEqual([reference.status, reference.text])
    expect(JSON.parse(sent.text).errors[0].message).toContain('Fields "a" conflict')
    // An alias that is also a field's name is the field's key: another form.
    expect((await send(knownBody(known.replace('a:', 'total:'), {}), bank.token)).known).toBe(false)
  })
})
