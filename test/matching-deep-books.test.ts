import { type CompiledQuery, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { Db } from '../src/db/database.ts'
import { Matching } from '../src/modules/exchange/matching/matching.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { createTestDatabase, onPostgres } from './helpers/database.ts'
import { createMarket } from './helpers/markets.ts'
import { ORDERS, placeOrder, placeVia } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const OPEN_LIMIT = 3

let server: TestServer
let alice: TestClient
let bob: TestClient

beforeAll(async () => {
  server = await startTestServer({ MAX_OPEN_ORDERS_PER_SYMBOL: String(OPEN_LIMIT) })
  ;[alice, bob] = await Promise.all([createTestClient(server), createTestClient(server)])
})
afterAll(async () => {
  await server?.close()
})

const limit = (symbol: string, side: 'buy' | 'sell', quantity: string, price: string) => ({ symbol, side, type: 'limit' as const, quantity, price })
const place = async (client: TestClient, body: unknown) => {
  const res = await placeOrder(server, client.token, body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

/** A matcher of its own over the server's database, standing for another process, and the statements it runs. */
function otherProcess(): { matching: Matching; statements: CompiledQuery[] } {
  const statements: CompiledQuery[] = []
  const base = server.services.db
  const compiled = new Map<object, CompiledQuery>()
  const db: Db = base.withPlugin({
    transformQuery: ({ node, queryId }) => {
      compiled.set(queryId, base.getExecutor().compileQuery(node, queryId))
      return node
    },
    transformResult: async ({ result, queryId }) => {
      statements.push(compiled.get(queryId)!)
      return result
    },
  })
  return { matching: new Matching(db, { maxConcurrentPasses: 1, transactions: onPostgres }), statements }
}

// The whole book (resting orders, then pending stops) read at once: what a process catching up must not do.
const wholeBookReads = (statements: CompiledQuery[]) => statements.filter((s) => /status = 'pending'\s+order by seq/.test(s.sql)).length

describe('many instances: each keeps its book warm', () => {
  it('passes alternating between two processes catch up on what the other wrote, never rereading the book', async () => {
    const symbol = await createMarket(server.services.db)
    const other = otherProcess()
    for (let i = 0; i < OPEN_LIMIT; i++) await place(bob, limit(symbol, 'sell', '1', '50.00'))
    for (let i = 0; i < OPEN_LIMIT; i++) await placeVia(other.matching, bob, limit(symbol, 'sell', '1', '50.00'))
    const takers = []
    for (let i = 0; i < 2 * OPEN_LIMIT; i++) {
      const body = limit(symbol, 'buy', '1', '50.00')
      takers.push(i % 2 === 0 ? await placeVia(other.matching, alice, body) : (await placeOrder(server, alice.token, body)).body)
    }
    // Every buy filled one sell, oldest first, whichever process matched it: no order traded twice.
    expect(takers.map((t) => t.status)).toEqual(Array(2 * OPEN_LIMIT).fill('filled'))
    const sells = (await server.request('GET', `${ORDERS}?symbol=${symbol}&side=sell&order_by=created_at&limit=100`, { token: bob.token })).body
    expect(sells.items.map((o: { status: string }) => o.status)).toEqual(Array(2 * OPEN_LIMIT).fill('filled'))
    const book = (await server.request('GET', `/api/exchange/v1/symbols/${symbol}/book`, { token: alice.token })).body
    expect(book).toMatchObject({ bids: [], asks: [] })
    // The other process read the whole book once, at its first pass; after that only what changed.
    expect(wholeBookReads(other.statements)).toBe(1)
    // It caught up before each of its passes that followed one of the server's: the 2nd and 3rd buys it matched.
    expect(other.statements.filter((s) => /book_epoch > /.test(s.sql)).length).toBe(OPEN_LIMIT - 1)
  })
})

describe('open orders per tenant and symbol', () => {
  it(`refuses a limit order past MAX_OPEN_ORDERS_PER_SYMBOL with 422, over REST, the dry run and GraphQL`, async () => {
    const symbol = await createMarket(server.services.db)
    const placed = []
    for (let i = 0; i < OPEN_LIMIT; i++) placed.push(await place(alice, limit(symbol, 'buy', '1', '10.00')))
    const detail = [
      {
        type: 'value_error.too_many_open_orders',
        loc: ['body', 'symbol'],
        msg: `at most ${OPEN_LIMIT} orders of a tenant may be open on ${symbol} at once`,
        input: symbol,
        ctx: { limit: OPEN_LIMIT },
      },
    ]
    const refused = await placeOrder(server, alice.token, limit(symbol, 'buy', '1', '10.00'))
    expect(refused.status).toBe(422)
    expect(refused.body).toEqual({ detail })
    const dryRun = await server.request('POST', `${ORDERS}/validate`, { token: alice.token, body: limit(symbol, 'sell', '1', '90.00') })
    expect(dryRun.status).toBe(422)
    expect(dryRun.body).toEqual({ detail })
    const viaGraphql = await server.graphql(
      `mutation($input: CreateOrderInput!) { createOrder(input: $input) { order { uid } } }`,
      { input: { symbol, side: 'buy', type: 'limit', quantity: '1', price: '10.00' } },
      { token: alice.token },
    )
    expect(viaGraphql.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', detail })
    // Nothing was stored by the refusals; a market order never rests, so it is not counted.
    const listed = await server.request('GET', `${ORDERS}?symbol=${symbol}&limit=100`, { token: alice.token })
    expect(listed.body.total).toBe(OPEN_LIMIT)
    expect((await placeOrder(server, alice.token, { symbol, side: 'buy', type: 'market', quantity: '1' })).status).toBe(201)
    // Another tenant has its own count; a cancelled order frees its place.
    await place(bob, limit(symbol, 'sell', '1', '90.00'))
    expect((await server.request('DELETE', `${ORDERS}/${placed[0].uid}`, { token: alice.token })).status).toBe(200)
    await place(alice, limit(symbol, 'buy', '1', '10.00'))
  })
})

describe('events carry decimals as the REST record does', () => {
  it('renders "+1", "1." and "50.50" as stored', async () => {
    const symbol = await createMarket(server.services.db)
    const before = (await server.request('GET', '/api/exchange/v1/events?limit=1', { token: bob.token })).body.total as number
    const order = await place(bob, { symbol, side: 'sell', type: 'limit', quantity: '+1.', price: '050.50' })
    expect(order).toMatchObject({ quantity: '1', price: '50.50' })
    const events = (await server.request('GET', `/api/exchange/v1/events?after=${before}&limit=100`, { token: bob.token })).body.items
    const created = events.find((e: { type: string; order: { uid: string } }) => e.type === 'order.created' && e.order.uid === order.uid)
    expect(created.order).toEqual(order)
  })
})

describe('bounded steps', () => {
  it('sweeps a deep book (10,000 resting orders; 1,000 on PGlite) in steps that leave /healthz answering', { timeout: 300_000 }, async () => {
    const symbol = await createMarket(server.services.db, { price_precision: 2, quantity_precision: 0, min_order_quantity: '1', tick_size: '0.01' })
    // The embedded database's steps are smaller and slower (docs/matching.md): fewer orders there
    // still make hundreds of steps.
    const depth = onPostgres ? 10_000 : 1_000
    // Resting sells stored as a pass would have left them (each holding its quantity of the base
    // currency), before this process first matches the symbol.
    const [base] = symbol.split('-')
    await sql`
      insert into orders (uid, user_id, tenant_id, symbol, side, type, quantity, price, status, seq, hold, hold_currency)
      select gen_random_uuid(), ${bob.clientId}, ${bob.tenantId}::uuid, ${symbol}, 'sell', 'limit', 1, 10 + (i % 100) / 100.0, 'open', i, 1, ${base}
      from generate_series(1, ${depth}) as i`.execute(server.services.db)
    await sql`update accounts set hold = hold + ${depth} where tenant_id = ${bob.tenantId} and currency = ${base}`.execute(server.services.db)
    await sql`insert into symbol_books (symbol, last_order_seq) values (${symbol}, ${depth})`.execute(server.services.db)
    // A first order loads the book.
    await place(alice, limit(symbol, 'buy', '1', '1.00'))

    const poll = async (during: () => Promise<unknown>) => {
      let done = false
      const gaps: number[] = []
      const polling = (async () => {
        let last = performance.now()
        while (!done) {
          expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
          const now = performance.now()
          gaps.push(now - last)
          last = now
        }
      })()
      const started = performance.now()
      const result = await during()
      const took = performance.now() - started
      done = true
      await polling
      gaps.sort((a, b) => a - b)
      return { result, took, worst: gaps.at(-1)!, p95: gaps[Math.floor(gaps.length * 0.95)]! }
    }
    // The same polling with nothing else running: what this host's scheduling alone costs.
    const idle = await poll(() => new Promise((resolve) => setTimeout(resolve, 1000)))
    const sweep = await poll(() => placeOrder(server, alice.token, { symbol, side: 'buy', type: 'market', quantity: String(depth + 5) }))
    const res = sweep.result as Awaited<ReturnType<typeof placeOrder>>
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ status: 'cancelled', cancel_reason: 'unfilled', filled_quantity: String(depth) })
    // Relative bounds only, so a busy host cannot break them (it slows the sweep and its steps alike):
    // /healthz was answered between the steps — the sweep takes about a hundred, so nearly every wait
    // was a small share of it (or no longer than this host's scheduling when idle) — and no wait came
    // near the whole sweep (one step held nothing long).
    const said = `sweep ${sweep.took.toFixed(0)} ms; /healthz gaps p95 ${sweep.p95.toFixed(0)}, worst ${sweep.worst.toFixed(0)}; idle worst ${idle.worst.toFixed(0)}`
    expect(sweep.p95, said).toBeLessThan(Math.max(sweep.took / 10, 2 * idle.worst))
    expect(sweep.worst, said).toBeLessThan(sweep.took / 4)

    const counts = await sql<{ open: number; trades: number }>`
      select (select count(*)::int from orders where symbol = ${symbol} and status in ('open', 'partially_filled')) as open,
        (select count(*)::int from trades where symbol = ${symbol}) as trades`.execute(server.services.db)
    expect(counts.rows[0]).toEqual({ open: 1, trades: depth })
    const book = (await server.request('GET', `/api/exchange/v1/symbols/${symbol}/book`, { token: alice.token })).body
    expect(book).toMatchObject({ bids: [{ price: '1.00', quantity: '1', orders: 1 }], asks: [] })
  })
})

describe('a sweep cut short between its steps', () => {
  it('is finished when the book is next loaded, before anything else', async () => {
    // Without transactions (the embedded database) a crash between two steps leaves the taker stored
    // but not yet matched: a market order still open, or a limit order crossing the book.
    const database = await createTestDatabase()
    const first = await startTestServer({}, database)
    const symbol = await createMarket(first.services.db)
    const [seller, buyer] = await Promise.all([createTestClient(first), createTestClient(first)])
    for (const price of ['10.00', '11.00', '12.00']) expect((await placeOrder(first, seller.token, limit(symbol, 'sell', '1', price))).status).toBe(201)
    // Each holding what it may spend: the market order 30, the limit order 2 × 12.00.
    const quote = symbol.split('-')[1]!
    const cut = await sql<{ uid: string }>`
      insert into orders (uid, user_id, tenant_id, symbol, side, type, quantity, price, time_in_force, status, seq, book_epoch, hold, hold_currency)
      values (gen_random_uuid(), ${buyer.clientId}, ${buyer.tenantId}::uuid, ${symbol}, 'buy', 'market', 2, null, 'ioc', 'open', 4, 1, 30, ${quote}),
        (gen_random_uuid(), ${buyer.clientId}, ${buyer.tenantId}::uuid, ${symbol}, 'buy', 'limit', 2, 12.00, 'gtc', 'open', 5, 1, 24, ${quote})
      returning uid`.execute(first.services.db)
    await sql`update accounts set hold = hold + 54 where tenant_id = ${buyer.tenantId} and currency = ${quote}`.execute(first.services.db)
    await sql`update symbol_books set last_order_seq = 5 where symbol = ${symbol}`.execute(first.services.db)
    await first.stop()
    const again = await startTestServer({}, database)
    try {
      const [marketUid, limitUid] = cut.rows.map((r) => r.uid)
      const get = async (uid: string) => (await again.request('GET', `${ORDERS}/${uid}`, { token: buyer.token })).body
      // In acceptance order: the market order takes 10.00 and 11.00, the limit order 12.00 and rests its rest.
      expect(await get(marketUid!)).toMatchObject({ status: 'filled', filled_quantity: '2.00', average_price: '10.50' })
      expect(await get(limitUid!)).toMatchObject({ status: 'partially_filled', filled_quantity: '1.00', average_price: '12.00' })
      const book = (await again.request('GET', `/api/exchange/v1/symbols/${symbol}/book`, { token: buyer.token })).body
      expect(book).toMatchObject({ bids: [{ price: '12.00', quantity: '1.00', orders: 1 }], asks: [] })
    } finally {
      await again.close()
    }
  })
})
