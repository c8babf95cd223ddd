import { type GraphQLField, isObjectType } from 'graphql'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { schema } from '../src/app/graphql-schema.ts'
import { undeclaredCatalogFields } from '../src/graphql/answer-reuse/catalog-fields.ts'
import { ResultStore } from '../src/graphql/answer-reuse/result-store.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { setSymbolActive } from '../src/modules/exchange/symbols/symbol-admin.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { withoutBackgroundPolls } from './helpers/background.ts'
import { eventually } from './helpers/eventually.ts'
import { LogSink } from './helpers/log-sink.ts'
import { placeOrder, usdBuy } from './helpers/orders.ts'
import { SHORT_RELOAD_MS, startTestServer, type TestServer } from './helpers/server.ts'

// Counts the executions of the catalog's root resolvers (the schema object the server serves).
const executions = { symbols: 0, symbol: 0 }
const rootFields = schema.getQueryType()!.getFields()
const originals = new Map<string, GraphQLField<unknown, unknown>['resolve']>()
for (const name of ['symbols', 'symbol'] as const) {
  const field = rootFields[name]!
  const resolve = field.resolve!
  originals.set(name, resolve)
  field.resolve = (...args) => {
    executions[name]++
    return resolve(...args)
  }
}

let server: TestServer
let bank: TestClient
let sink: LogSink
beforeAll(async () => {
  sink = new LogSink()
  server = await startTestServer({ LOG_LEVEL: 'info' }, undefined, { logDestination: sink, intervals: { catalog: SHORT_RELOAD_MS } })
  await seedDemoMarket(server.services.db)
  // The seeding changed the catalog: a poll seeing it only during a test dropped what that test had
  // kept (seen once on a busy host). The second check starts after any the first one joined.
  await server.services.symbolsCache.check()
  await server.services.symbolsCache.check()
  bank = await createTestClient(server)
})
afterAll(async () => {
  for (const [name, resolve] of originals) rootFields[name]!.resolve = resolve
  await server?.close()
})

// The bench's query: every field of a symbol and its currencies.
const FULL = `{ symbols(limit: 100) { total offset limit items { uid createdAt updatedAt isDeleted metaData userId symbol pricePrecision quantityPrecision minOrderQuantity tickSize dailyFluctuationPriceLimitPercent description isActive referencePrice priceBand { min max } base { symbol } quote { symbol } properties { symbol precision icon isCrypto color unitValueIrr name { fa en } } } } }`

/** POSTs a GraphQL document and keeps the raw response text. */
function post(query: string, options: { token?: string; variables?: object; operationName?: string; headers?: Record<string, string> } = {}) {
  const { token, variables, operationName, headers } = options
  return server.request('POST', '/graphql', { token, headers, body: { query, variables, operationName } })
}

const executed = async (query: string, options: Parameters<typeof post>[1] = {}) => {
  const before = executions.symbols + executions.symbol
  const res = await post(query, { token: bank.token, ...options })
  return { res, executions: executions.symbols + executions.symbol - before }
}

const queries = () => server.services.database.queryCount()

// Only how long a test waits before failing when the catalog checks are broken.
const GIVE_UP_MS = 5000

/** Polls until `check` holds (after the next catalog check). */
async function seen(check: () => Promise<boolean>): Promise<void> {
  await eventually(async () => ((await check()) ? true : undefined), GIVE_UP_MS, SHORT_RELOAD_MS / 2)
}

describe('GraphQL symbol result cache', () => {
  it('answers a repeated catalog query from memory, byte for byte as executing it does', () =>
    withoutBackgroundPolls(server.services, async () => {
      // A root @include is never cached: executed every time, this is the uncached answer.
      const uncached = FULL.replace('symbols(limit: 100)', 'symbols(limit: 100) @include(if: true)')
      const reference = await executed(uncached)
      expect((await executed(uncached)).executions).toBe(1)
      const first = await executed(FULL)
      expect(first.executions).toBe(1)
      const before = queries()
      const cached = await executed(FULL)
      expect(cached.executions).toBe(0)
      expect(queries() - before).toBe(0)
      expect(cached.res.status).toBe(200)
      expect(cached.res.text).toBe(first.res.text)
      expect(cached.res.text).toBe(reference.res.text)
      expect(cached.res.headers.get('content-type')).toBe(first.res.headers.get('content-type'))
      expect(cached.res.body.data.symbols.items.length).toBeGreaterThan(1)
      // The media type the caller accepts is still negotiated per request.
      const graphqlJson = { accept: 'application/graphql-response+json' }
      const negotiated = await executed(FULL, { headers: graphqlJson })
      expect(negotiated.executions).toBe(0)
      expect(negotiated.res.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8')
      expect(negotiated.res.text).toBe(first.res.text)
    }))

  it('does no resolver or database work for a warm symbol(symbol) query, which otherwise reads the database', () =>
    withoutBackgroundPolls(server.services, async () => {
      const query = 'query One($name: String!) { symbol(symbol: $name) { symbol tickSize base { symbol } } }'
      let before = queries()
      const first = await executed(query, { variables: { name: 'USD-IRR' } })
      expect(first.executions).toBe(1)
      expect(queries() - before).toBeGreaterThan(0)
      before = queries()
      const again = await executed(query, { variables: { name: 'USD-IRR' } })
      expect(again.executions).toBe(0)
      expect(queries() - before).toBe(0)
      expect(again.res.text).toBe(first.res.text)
      // Other variables are another entry.
      const other = await executed(query, { variables: { name: 'BTC-USDT' } })
      expect(other.executions).toBe(1)
      expect(other.res.body.data.symbol.symbol).toBe('BTC-USDT')
    }))

  it('still authenticates, checks the scope, counts, logs and ids every cached request', async () => {
    const query = '{ symbols(limit: 3) { total items { symbol } } }'
    const noScope = await createTestClient(server, { scopes: ['orders:read'] })
    const refused = async () => [await post(query), await post(query, { token: noScope.token }), await post(query, { token: 'not-a-token' })]
    const cold = await refused()
    expect(cold.map((r) => r.status)).toEqual([401, 403, 401])
    await post(query, { token: bank.token })
    expect((await executed(query)).executions).toBe(0)
    const warm = await refused()
    for (const [i, res] of warm.entries()) {
      expect(res.status).toBe(cold[i]!.status)
      expect(res.text).toBe(cold[i]!.text)
    }
    const a = await executed(query, { headers: { 'x-request-id': 'gql-cache-a' } })
    const b = await executed('query Listing { symbols(limit: 3) { total items { symbol } } }', { headers: { 'x-request-id': 'gql-cache-b' } })
    const c = await executed('query Listing { symbols(limit: 3) { total items { symbol } } }')
    expect([a.executions, c.executions]).toEqual([0, 0])
    expect(b.executions).toBe(1)
    expect(Number(c.res.headers.get('ratelimit-remaining'))).toBe(Number(a.res.headers.get('ratelimit-remaining')) - 2)
    expect(a.res.headers.get('x-request-id')).toBe('gql-cache-a')
    const line = sink.requests().find((l) => l.requestId === 'gql-cache-a')
    expect(line).toMatchObject({ route: '/graphql', status: 200, sub: bank.clientId })
    expect(sink.requests().find((l) => l.requestId === 'gql-cache-b')).toMatchObject({ operation: 'Listing', sub: bank.clientId })
  })

  it('never keeps an answer with errors', async () => {
    const query = '{ symbols(limit: 1000) { total } }'
    const first = await executed(query)
    expect(first.res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT')
    const again = await executed(query)
    expect(again.executions).toBe(1)
    expect(again.res.text).toBe(first.res.text)
  })

  it('executes every time a document that reads anything besides the catalog', async () => {
    const documents = [
      '{ symbols(limit: 1) { total } orders(limit: 1) { total } }',
      '{ symbols(limit: 1) { total } health { status } }',
      '{ symbols(limit: 1) { total } __schema { queryType { name } } }',
      '{ symbols(limit: 1) { total } __type(name: "Symbol") { name } }',
      'query A { symbols(limit: 1) { total } } query B { symbols(limit: 2) { total } }',
      '{ symbols(limit: 1) @skip(if: false) { total } }',
      '{ ...Root } fragment Root on Query { symbols(limit: 1) { total } orders(limit: 1) { total } }',
      // A market's trades are live, not catalog data.
      '{ symbol(symbol: "USD-IRR") { symbol trades(limit: 1) { price } } }',
    ]
    for (const query of documents) {
      const operationName = query.startsWith('query A') ? 'A' : undefined
      const first = await executed(query, { operationName })
      expect(first.res.status, query).toBe(200)
      expect(first.res.body.errors, query).toBeUndefined()
      expect(first.executions, query).toBe(1)
      expect((await executed(query, { operationName })).executions, query).toBe(1)
    }
    // The same fragment without the orders is catalog only.
    const catalogOnly = '{ ...Root } fragment Root on Query { symbols(limit: 1) { total } }'
    await executed(catalogOnly)
    expect((await executed(catalogOnly)).executions).toBe(0)
  })

  it('answers the orders of a mixed query fresh', async () => {
    const query = '{ symbols(limit: 1) { total } orders(limit: 1) { total } }'
    const total = async () => (await post(query, { token: bank.token })).body.data.orders.total as number
    const before = await total()
    expect((await placeOrder(server, bank.token, usdBuy)).status).toBe(201)
    expect(await total()).toBe(before + 1)
  })

  it('sees a symbol change by the operator path, and by plain SQL, as soon as REST does', async () => {
    const query = '{ symbols(limit: 100) { items { symbol isActive properties { symbol name { en } } } } }'
    const gqlActive = async () => (await post(query, { token: bank.token })).body.data.symbols.items.find((i: any) => i.symbol === 'BTC-USDT').isActive
    const restSymbol = async () =>
      (await server.request('GET', '/api/exchange/v1/symbols?limit=100', { token: bank.token })).body.items.find((i: any) => i.symbol === 'BTC-USDT')
    // Both caches warm.
    expect((await restSymbol()).is_active).toBe(true)
    expect(await gqlActive()).toBe(true)
    expect((await executed(query)).executions).toBe(0)

    await setSymbolActive(server.services.db, 'BTC-USDT', false)
    await seen(async () => (await restSymbol()).is_active === false)
    expect(await gqlActive()).toBe(false)

    const gqlName = async () =>
      (await post(query, { token: bank.token })).body.data.symbols.items.find((i: any) => i.symbol === 'BTC-USDT').properties[1].name.en
    // Checks stopped while the row changes, so the answer kept from before is still served: it
    // is the catalog check that drops it, not the write.
    await server.services.symbolsCache.stop()
    await sql`update currencies set name_en = 'Renamed' where code = 'USDT'`.execute(server.services.db)
    expect(await gqlName()).not.toBe('Renamed')
    server.services.symbolsCache.start(server.services.intervals.catalog, (err) => server.services.logger.warn({ err }))
    await seen(async () => (await restSymbol()).properties.USDT.name.en === 'Renamed')
    expect(await gqlName()).toBe('Renamed')

    await setSymbolActive(server.services.db, 'BTC-USDT', true)
    await seedDemoMarket(server.services.db)
    await seen(async () => (await gqlActive()) === true && (await gqlName()) !== 'Renamed')
  })
})

describe('GraphQL symbol result cache under the API rate limit', () => {
  let limited: TestServer
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMIT_API_PER_MIN: '3' })
    await seedDemoMarket(limited.services.db)
  })
  afterAll(async () => {
    await limited?.close()
  })

  it('refuses a cache hit over the limit exactly as an executed request', async () => {
    const overTheLimit = async (query: string) => {
      const client = await createTestClient(limited)
      const send = () => limited.request('POST', '/graphql', { token: client.token, body: { query } })
      return [await send(), await send(), await send(), await send()]
    }
    const query = '{ symbols(limit: 2) { total items { symbol } } }'
    const cached = await overTheLimit(query)
    expect(cached.map((r) => r.status)).toEqual([200, 200, 200, 429])
    expect(cached[1]!.text).toBe(cached[0]!.text)
    // The same refusal when every request executes (a root @include is never cached).
    const executed = await overTheLimit(query.replace('symbols(limit: 2)', 'symbols(limit: 2) @include(if: true)'))
    expect(executed.map((r) => r.status)).toEqual([200, 200, 200, 429])
    expect(cached[3]!.body.errors[0].extensions.code).toBe('RATE_LIMITED')
    expect(cached[3]!.text).toBe(executed[3]!.text)
    expect(cached[3]!.headers.get('retry-after')).toBeTruthy()
  })
})

describe('result store', () => {
  const result = (n: number) => ({ data: { n }, stringify: () => `{"data":{"n":${n}}}` })

  it('keeps a bounded number of entries, the oldest going first', () => {
    const catalog = { generation: 1 }
    const store = new ResultStore(catalog)
    for (let i = 0; i < 300; i++) store.set(`k${i}`, result(i), 10, 1)
    expect(store.get('k0')).toBeUndefined()
    expect(store.get('k43')).toBeUndefined()
    expect(store.get('k44')?.data).toEqual({ n: 44 })
    expect(store.get('k299')?.data).toEqual({ n: 299 })
  })

  it('keeps a bounded number of bytes, and no entry over its share', () => {
    const store = new ResultStore({ generation: 0 })
    const mib = 1024 * 1024
    store.set('huge', result(0), 3 * mib, 0)
    expect(store.get('huge')).toBeUndefined()
    for (let i = 0; i < 10; i++) store.set(`k${i}`, result(i), 2 * mib, 0)
    expect(store.get('k1')).toBeUndefined()
    expect(store.get('k2')?.data).toEqual({ n: 2 })
    expect(store.get('k9')?.data).toEqual({ n: 9 })
  })

  it('drops everything when the catalog generation moves, and never keeps a result of an older one', () => {
    const catalog = { generation: 5 }
    const store = new ResultStore(catalog)
    store.set('a', result(1), 10, 5)
    catalog.generation = 6
    expect(store.get('a')).toBeUndefined()
    store.set('b', result(2), 10, 5)
    expect(store.get('b')).toBeUndefined()
    store.set('c', result(3), 10, 6)
    expect(store.get('c')?.data).toEqual({ n: 3 })
  })
})

describe('catalog field declarations', () => {
  const symbolFields = () => {
    const symbolType = schema.getType('Symbol')
    if (!isObjectType(symbolType)) throw new Error('Symbol is not an object type')
    return symbolType.getFields()
  }

  it('declares of every field a catalog answer can reach whether it is catalog data', () => {
    expect(undeclaredCatalogFields(schema)).toEqual([])
  })

  it('finds a field added to a catalog type without a declaration', () => {
    const fields = symbolFields()
    const { makerFeePercent } = fields
    // As the settlement work added it: the field, and no word on whether it is catalog data.
    fields.addedLater = { ...makerFeePercent!, name: 'addedLater', extensions: {} }
    try {
      expect(undeclaredCatalogFields(schema)).toEqual(['Symbol.addedLater'])
    } finally {
      delete fields.addedLater
    }
  })

  it('declares the live market fields of Symbol not catalog data, and every REST field of a symbol catalog data', () => {
    const fields = symbolFields()
    const declared = (value: boolean) =>
      Object.values(fields)
        .filter((f) => f.extensions.catalogData === value)
        .map((f) => f.name)
        .sort()
    expect(declared(false)).toEqual(['candles', 'orderBook', 'ticker', 'trades'])
    expect(declared(true)).toEqual(expect.arrayContaining(['makerFeePercent', 'takerFeePercent', 'referencePrice', 'priceBand', 'properties']))
  })
})
