import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { GRAPHQL_LIMITS } from '../src/graphql/limits.ts'
import { counterValue } from '../src/observability/metrics.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { withoutBackgroundPolls } from './helpers/background.ts'
import { openSse, type SseClient } from './helpers/event-stream.ts'
import { createMarket } from './helpers/markets.ts'
import { placeOrder } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let alice: TestClient
let bob: TestClient
// `crossed`: 105 resting sells of alice, each filled by one buy of bob (105 trades, 105 fills of the taker).
let crossed: string
// `resting`: levels on both sides; `quiet`: no order at all.
let resting: string
let quiet: string
let taker: string
const streams: SseClient[] = []

const limit = (symbol: string, side: 'buy' | 'sell', quantity: string, price: string) => ({ symbol, side, type: 'limit', quantity, price })

beforeAll(async () => {
  server = await startTestServer()
  ;[alice, bob] = [await createTestClient(server), await createTestClient(server)]
  crossed = await createMarket(server.services.db)
  resting = await createMarket(server.services.db)
  quiet = await createMarket(server.services.db)
  for (let i = 0; i < 105; i++) expect((await placeOrder(server, alice.token, limit(crossed, 'sell', '1', '10.00'))).status).toBe(201)
  const buy = await placeOrder(server, bob.token, limit(crossed, 'buy', '105', '10.00'))
  expect(buy.body).toMatchObject({ status: 'filled', filled_quantity: '105.00' })
  taker = buy.body.uid
  for (const price of ['11.00', '12.00', '12.00', '13.00']) await placeOrder(server, alice.token, limit(resting, 'sell', '2', price))
  for (const price of ['9.00', '8.50', '8.00']) await placeOrder(server, bob.token, limit(resting, 'buy', '3', price))
})
afterAll(async () => {
  for (const stream of streams) stream.close()
  await server?.close()
})

/** The statements a GraphQL request runs, asked twice so caches (tokens, the catalog) are warm: the second count. */
async function statementsOf(query: string, token: string) {
  let answer!: Awaited<ReturnType<TestServer['graphql']>>
  const counts: number[] = []
  const compiled = () => counterValue(server.services.metrics.graphqlKnownDocumentRuns, { executor: 'compiled' })
  const known = await counterValue(server.services.metrics.graphqlKnownDocuments)
  const compiledBefore = await compiled()
  // The first run warms the caches and is Yoga's (the document is then known); the second and
  // third run before Yoga uncompiled, the fourth compiled: each must batch alike.
  for (let i = 0; i < 4; i++) {
    await withoutBackgroundPolls(server.services, async () => {
      const before = server.services.database.queryCount()
      answer = await server.graphql(query, undefined, { token })
      counts.push(server.services.database.queryCount() - before)
    })
    expect(answer.status).toBe(200)
    expect(answer.errors).toBeUndefined()
  }
  const statements = counts[1]!
  expect(counts.slice(1)).toEqual([statements, statements, statements])
  const compiledRuns = (await compiled()) - compiledBefore
  // How many of the runs were answered before Yoga as a known document (not the catalog's).
  const knownRuns = (await counterValue(server.services.metrics.graphqlKnownDocuments)) - known
  return { data: answer.data as any, statements, knownRuns, compiledRuns }
}

describe('Order.fills', () => {
  it('is bounded: at most 100 by default, else the first `limit`, oldest first, as the fills list has them', async () => {
    const res = await server.graphql(
      `query($uid: ID!) { order(uid: $uid) { filledQuantity all: fills { uid } first: fills(limit: 3) { uid orderUid price quantity role } } }`,
      { uid: taker },
      { token: bob.token },
    )
    expect(res.errors).toBeUndefined()
    const order = (res.data as any).order
    expect(order.filledQuantity).toBe('105.00')
    expect(order.all).toHaveLength(100)
    const rest = await server.request('GET', `/api/exchange/v1/fills?order_uid=${taker}&order_by=created_at&limit=100`, { token: bob.token })
    expect(order.all.map((f: any) => f.uid)).toEqual(rest.body.items.map((f: any) => f.uid))
    expect(order.first).toEqual(
      rest.body.items.slice(0, 3).map((f: any) => ({ uid: f.uid, orderUid: taker, price: f.price, quantity: f.quantity, role: 'taker' })),
    )
  })

  it('takes a limit of 1 to 100, refused as the REST lists refuse it', async () => {
    const res = await server.graphql(`query($uid: ID!) { order(uid: $uid) { fills(limit: 101) { uid } } }`, { uid: taker }, { token: bob.token })
    expect(res.errors).toHaveLength(1)
    expect(res.errors![0]).toMatchObject({ path: ['order', 'fills'], extensions: { code: 'BAD_USER_INPUT' } })
    expect(res.errors![0]!.extensions.detail).toEqual([
      {
        type: 'value_error.number.not_le',
        loc: ['query', 'limit'],
        msg: 'ensure this value is less than or equal to 100',
        input: '101',
        ctx: { limit_value: 100 },
      },
    ])
  })

  it('is read for a page of 100 orders in one statement', async () => {
    const page = 'orders(limit: 100, orderBy: { field: created_at }) { items { uid'
    const bare = await statementsOf(`{ ${page} } } }`, alice.token)
    const { data, statements, knownRuns, compiledRuns } = await statementsOf(`{ ${page} fills(limit: 5) { orderUid quantity } } } }`, alice.token)
    expect(statements).toBe(bare.statements + 1)
    expect([knownRuns, compiledRuns]).toEqual([3, 1])
    expect(data.orders.items).toHaveLength(100)
    for (const order of data.orders.items) expect(order.fills).toEqual([{ orderUid: order.uid, quantity: '1.00' }])
  })
})

describe('Symbol.orderBook and Symbol.trades under a list of symbols', () => {
  const ALL = `symbols(limit: 100) { items { symbol`
  const BOOK_AND_TRADES = `orderBook(depth: 2) { symbol sequence checksum bids { price quantity orders } asks { price quantity orders } } trades(limit: 3) { uid symbol price quantity takerSide createdAt sequence }`

  it('are read in one statement each for every symbol, whatever their number', async () => {
    const bare = await statementsOf(`{ ${ALL} } } }`, alice.token)
    const { data, statements, knownRuns, compiledRuns } = await statementsOf(`{ ${ALL} ${BOOK_AND_TRADES} } } }`, alice.token)
    expect([knownRuns, compiledRuns]).toEqual([3, 1])
    expect(data.symbols.items.length).toBeGreaterThanOrEqual(3)
    expect(statements).toBe(bare.statements + 2)
  })

  it('answer what the REST book and trades answer for each', async () => {
    const { data } = await statementsOf(`{ ${ALL} ${BOOK_AND_TRADES} } } }`, alice.token)
    const items = new Map<string, any>(data.symbols.items.map((item: any) => [item.symbol, item]))
    for (const symbol of [crossed, resting, quiet]) {
      const book = (await server.request('GET', `/api/exchange/v1/symbols/${symbol}/book?depth=2`, { token: alice.token })).body
      const trades = (await server.request('GET', `/api/exchange/v1/symbols/${symbol}/trades?limit=3`, { token: alice.token })).body
      expect(items.get(symbol)).toEqual({
        symbol,
        orderBook: { ...book, sequence: String(book.sequence), checksum: String(book.checksum) },
        trades: trades.items.map((t: any) => ({
          uid: t.uid,
          symbol,
          price: t.price,
          quantity: t.quantity,
          takerSide: t.taker_side,
          createdAt: t.created_at,
          sequence: String(t.sequence),
        })),
      })
    }
    expect(items.get(resting).orderBook).toMatchObject({
      bids: [
        { price: '9.00', quantity: '3.00', orders: 1 },
        { price: '8.50', quantity: '3.00', orders: 1 },
      ],
      asks: [
        { price: '11.00', quantity: '2.00', orders: 1 },
        { price: '12.00', quantity: '4.00', orders: 2 },
      ],
    })
    expect(items.get(crossed).trades).toHaveLength(3)
    expect(items.get(quiet)).toMatchObject({ orderBook: { sequence: '0', bids: [], asks: [] }, trades: [] })
  })
})

describe('the cost of list fields under lists', () => {
  const refused = async (query: string, token = alice.token) => {
    const res = await server.request('POST', '/graphql', { body: { query }, token, headers: { accept: 'application/graphql-response+json' } })
    return { status: res.status, body: res.body }
  }
  const costError = (cost: number, limit = GRAPHQL_LIMITS.maxCost, what = 'a cost of') => ({
    status: 400,
    body: {
      errors: [
        {
          message: `The operation has ${what} ${cost}, over the limit of ${limit}`,
          locations: [{ line: 1, column: 1 }],
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        },
      ],
    },
  })

  it("counts each order's fills: 18 aliased pages of 100 orders with their fills are refused", async () => {
    // Per alias 1 + 100 × (1 + (1 + 100 × 3)) = 30,201.
    const aliases = Array.from({ length: 18 }, (_, i) => `a${i}: orders(limit: 100) { items { fills { uid price quantity } } }`).join(' ')
    expect(await refused(`{ ${aliases} }`)).toEqual(costError(18 * 30_201))
  })

  it("counts each symbol's book by its depth", async () => {
    // 1 + 100 × (1 + (1 + 100 × (1 + 3 + 1 + 3))) = 80,201.
    expect(
      await refused(`{ symbols(limit: 100) { items { orderBook(depth: 100) { bids { price quantity orders } asks { price quantity orders } } } } }`),
    ).toEqual(costError(80_201))
  })

  it('still serves a dashboard page: orders with a few fills each and their market', async () => {
    const res = await server.graphql(
      `{ orders(limit: 20) { items { uid fills(limit: 10) { price quantity } market { symbol orderBook(depth: 5) { bids { price } asks { price } } trades(limit: 5) { price } } } } }`,
      undefined,
      { token: alice.token },
    )
    expect(res.status).toBe(200)
    expect(res.errors).toBeUndefined()
    expect((res.data as any).orders.items).toHaveLength(20)
  })

  const subscribe = async (token: string, query: string) => {
    const stream = await openSse(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    })
    streams.push(stream)
    return stream
  }

  it(`holds a subscription's selection, run once per event, to a cost of ${GRAPHQL_LIMITS.maxEventCost}: refused before it starts`, async () => {
    // 1 + (1 + (1 + 1 + (1 + 100 × 1))) = 105: an order's fills at their default size, on every event.
    const stream = await subscribe(alice.token, `subscription { orderEvents { type order { uid fills { uid } } } }`)
    expect(await stream.messages(2)).toEqual([
      {
        event: 'next',
        data: JSON.stringify({
          errors: [
            {
              message: `The operation has a cost per event of 105, over the limit of ${GRAPHQL_LIMITS.maxEventCost}`,
              locations: [{ line: 1, column: 1 }],
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
            },
          ],
        }),
      },
      { event: 'complete', data: '' },
    ])
    await stream.ended
  })

  it('serves a subscription with a small list per event, read afresh for each event', async () => {
    const symbol = await createMarket(server.services.db)
    const stream = await subscribe(alice.token, `subscription { orderEvents { type order { uid fills(limit: 5) { quantity role } } } }`)
    await stream.waitFor((m) => m.comment !== undefined)
    const sell = (await placeOrder(server, alice.token, limit(symbol, 'sell', '2', '10.00'))).body
    await placeOrder(server, bob.token, limit(symbol, 'buy', '2', '10.00'))
    // Balance events (order null) follow each change of the order.
    const events = (await stream.messages(3)).map((m) => JSON.parse(m.data!))
    expect(events).toEqual([
      { data: { orderEvents: { type: 'order.created', order: { uid: sell.uid, fills: [] } } } },
      { data: { orderEvents: { type: 'balance', order: null } } },
      { data: { orderEvents: { type: 'fill', order: { uid: sell.uid, fills: [{ quantity: '2.00', role: 'maker' }] } } } },
    ])
    stream.close()
  })
})
