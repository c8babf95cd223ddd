import { CompiledQuery, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { withoutBackgroundPolls } from './helpers/background.ts'
import { ORDERS, placeOrder, usdBuy } from './helpers/orders.ts'
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
    expect(reversed.body.items.map((o: any) => o.uid)).toEqual(
      all
        .slice(-5)
        .reverse()
        .map((o: any) => o.uid),
    )
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

describe('identical lists asked at once', () => {
  it('share one statement and one rendering, each answered in full', async () => {
    const { services } = server
    const db = services.db
    const reads = services.orderLists
    let asked = 0
    const read = reads.read.bind(reads)
    reads.read = (key, run) => (asked++, read(key, run))
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    let statements = 0
    // The first list statement is held until all twelve requests have asked: they arrive while it runs.
    services.db = db.withPlugin({
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }) => {
        if (++statements === 1) await gate
        return result
      },
    })
    try {
      const answers = Promise.all(Array.from({ length: 12 }, () => server.request('GET', `${ORDERS}?limit=100`, { token: bank.token })))
      for (let i = 0; i < 500 && asked < 12; i++) await new Promise((r) => setTimeout(r, 10))
      expect(asked).toBe(12)
      release()
      const bodies = (await answers).map((a) => (expect(a.status).toBe(200), a.body))
      // The first request ran alone; the eleven that came while it ran shared the next statement.
      expect(statements).toBe(2)
      for (const body of bodies) expect(body).toEqual(bodies[0])
      expect(bodies[0].items).toHaveLength(100)
    } finally {
      services.db = db
      reads.read = read
      release()
    }
    // Another tenant's identical query is its own statement and its own answer.
    const theirs = await server.request('GET', `${ORDERS}?limit=100`, { token: other.token })
    expect(theirs.body.total).toBe(3)
  })

  it('still show each caller every order acknowledged before it asked, while others poll', async () => {
    const poller = await createTestClient(server)
    let polling = true
    const pollers = Array.from({ length: 6 }, async () => {
      while (polling) expect((await server.request('GET', `${ORDERS}?limit=100`, { token: poller.token })).status).toBe(200)
    })
    try {
      for (let i = 1; i <= 15; i++) {
        const placed = await placeOrder(server, poller.token, usdBuy)
        expect(placed.status).toBe(201)
        const list = await server.request('GET', `${ORDERS}?limit=100`, { token: poller.token })
        expect(list.body.total).toBe(i)
        expect(list.body.items.map((o: any) => o.uid)).toContain(placed.body.uid)
      }
    } finally {
      polling = false
      await Promise.all(pollers)
    }
  })
})

/** The statements the service runs while `fn` runs, compiled as sent. */
async function statementsOf(fn: () => Promise<void>): Promise<CompiledQuery[]> {
  const statements: CompiledQuery[] = []
  const compiled = new Map<object, CompiledQuery>()
  const { services } = server
  const db = services.db
  services.db = db.withPlugin({
    // Subqueries are transformed too, but only statements that run get a result.
    transformQuery: ({ node, queryId }) => {
      compiled.set(queryId, db.getExecutor().compileQuery(node, queryId))
      return node
    },
    transformResult: async ({ result, queryId }) => {
      statements.push(compiled.get(queryId)!)
      return result
    },
  })
  try {
    await withoutBackgroundPolls(services, fn)
  } finally {
    services.db = db
  }
  return statements
}

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Actual Rows': number
  'Actual Loops': number
  Plans?: PlanNode[]
}

const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)]

/** Runs the statement under EXPLAIN ANALYZE: which plan nodes ran, and how many `orders` rows they read. */
async function analysed(statement: CompiledQuery) {
  const { rows } = await server.services.db.executeQuery<{ 'QUERY PLAN': unknown }>(
    CompiledQuery.raw(`explain (analyze, format json) ${statement.sql}`, [...statement.parameters]),
  )
  const json = rows[0]!['QUERY PLAN']
  const [{ Plan }] = (typeof json === 'string' ? JSON.parse(json) : json) as [{ Plan: PlanNode }]
  const nodes = planNodes(Plan)
  return {
    nodeTypes: nodes.map((n) => n['Node Type']),
    ordersRowsRead: nodes.filter((n) => n['Relation Name'] === 'orders').reduce((sum, n) => sum + n['Actual Rows'] * n['Actual Loops'], 0),
  }
}

describe('a page of a big tenant', () => {
  const SIZE = 6000
  let big: TestClient
  beforeAll(async () => {
    big = await createTestClient(server)
    // Straight into the table, as a burst of creation leaves it: never analysed.
    await sql`
      insert into orders (uid, created_at, updated_at, user_id, tenant_id, symbol, side, type, quantity, price, status)
      select gen_random_uuid(), timezone('utc', clock_timestamp()), timezone('utc', clock_timestamp()), ${big.clientId}, ${big.tenantId},
             'USD-IRR', 'buy', 'limit', 1000, 1050000, 'open'
      from generate_series(1, ${SIZE}::int)`.execute(server.services.db)
  })

  const pageOf = async (query: string) => {
    let res!: Awaited<ReturnType<TestServer['request']>>
    const statements = await statementsOf(async () => {
      res = await server.request('GET', `${ORDERS}?${query}`, { token: big.token })
    })
    expect(res.status).toBe(200)
    expect(res.body.total).toBe(SIZE)
    expect(statements).toHaveLength(1)
    return { body: res.body, ...(await analysed(statements[0]!)) }
  }

  const readsOnlyThePage = async () => {
    const first = await pageOf('limit=100')
    expect(first.nodeTypes.filter((t) => t.includes('Sort'))).toEqual([])
    expect(first.ordersRowsRead).toBeLessThanOrEqual(100)
    expect(first.body.items).toHaveLength(100)

    const newest = await pageOf('limit=100&order_by=-created_at')
    expect(newest.nodeTypes.filter((t) => t.includes('Sort'))).toEqual([])
    expect(newest.ordersRowsRead).toBeLessThanOrEqual(100)

    const deep = await pageOf('limit=100&offset=1000')
    expect(deep.nodeTypes.filter((t) => t.includes('Sort'))).toEqual([])
    expect(deep.ordersRowsRead).toBeLessThanOrEqual(1100)

    const keys = (items: any[]) => items.map((o) => `${o.created_at} ${o.uid}`)
    expect(keys(first.body.items)).toEqual(keys(first.body.items).sort())
    expect(keys(newest.body.items)).toEqual(keys(newest.body.items).sort().reverse())
    expect(keys(first.body.items).at(-1)! < keys(deep.body.items)[0]!).toBe(true)
  }

  it('reads the page in index order, not every order of the tenant, on a table never analysed', async () => {
    const { rows } = await sql<{ analysed: boolean }>`
      select (reltuples >= 0) as analysed from pg_class where relname = 'orders'`.execute(server.services.db)
    expect(rows[0]!.analysed).toBe(false)
    await readsOnlyThePage()
  })

  it('and with fresh statistics', async () => {
    await sql`analyze orders`.execute(server.services.db)
    await readsOnlyThePage()
  })
})
