import { randomUUID } from 'node:crypto'
import { request as httpRequest } from 'node:http'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { setSymbolActive } from '../src/modules/exchange/symbols/symbol-admin.ts'
import { counterValue } from '../src/observability/metrics.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { LogSink } from './helpers/log-sink.ts'
import { sendRaw } from './helpers/raw-http.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const DASHBOARD = 'https://dashboard.bank.example'
const OPS = 'https://ops.bank.example'

let server: TestServer
let bank: TestClient
let sink: LogSink
beforeAll(async () => {
  sink = new LogSink()
  server = await startTestServer({ LOG_LEVEL: 'info', CORS_ORIGINS: `${DASHBOARD},${OPS}`, RATE_LIMIT_API_PER_MIN: '1000' }, undefined, {
    logDestination: sink,
  })
  await seedDemoMarket(server.services.db)
  // The seeding changed the catalog: a poll seeing it later would drop every recording mid-test.
  // Twice: the first may join a check that began before the seeding ended.
  await server.services.symbolsCache.check()
  await server.services.symbolsCache.check()
  bank = await createTestClient(server)
})
afterAll(async () => {
  await server?.close()
})

const recordedAnswers = () => counterValue(server.services.metrics.graphqlRecordedAnswers)

interface Sent {
  status: number
  headers: Headers
  text: string
  /** Whether the answer was a recorded one, given before Yoga. */
  recorded: boolean
}

/** POSTs `body` as it is (bytes and headers exactly as given) and notes whether the answer was a recorded one. */
async function send(body: string, headers: Record<string, string> = {}, token: string | null = bank.token): Promise<Sent> {
  const all: Record<string, string> = { 'content-type': 'application/json', ...headers }
  if (token) all.authorization = `Bearer ${token}`
  const before = await recordedAnswers()
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: all, body })
  const text = await res.text()
  return { status: res.status, headers: res.headers, text, recorded: (await recordedAnswers()) - before === 1 }
}

/** The headers that must match between two answers to the same request. */
function stableHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  headers.forEach((value, name) => {
    if (!['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset'].includes(name)) out[name] = value
  })
  return out
}

const body = (query: string, variables?: object) => JSON.stringify({ query, variables })

describe('GraphQL catalog answers repeated before Yoga', () => {
  it('repeats the answer Yoga gave to the same bytes, with its own request id, rate limit and log line', async () => {
    const query = body('query Board { symbols(limit: 100) { total items { symbol tickSize properties { symbol name { en } } } } }')
    // An uncached execution of the same document (a root @include is never cached) is the reference.
    const reference = await send(
      body('query Board { symbols(limit: 100) @include(if: true) { total items { symbol tickSize properties { symbol name { en } } } } }'),
    )
    const executed = await send(query)
    const repeated = await send(query, { 'x-request-id': 'recorded-a' })
    const again = await send(query)
    expect([reference.recorded, executed.recorded, repeated.recorded, again.recorded]).toEqual([false, false, true, true])
    expect(repeated.status).toBe(200)
    expect(repeated.text).toBe(executed.text)
    expect(repeated.text).toBe(reference.text)
    expect(stableHeaders(repeated.headers)).toEqual(stableHeaders(executed.headers))
    expect(repeated.headers.get('x-request-id')).toBe('recorded-a')
    expect(Number(repeated.headers.get('ratelimit-remaining'))).toBe(Number(executed.headers.get('ratelimit-remaining')) - 1)
    expect(Number(again.headers.get('ratelimit-remaining'))).toBe(Number(executed.headers.get('ratelimit-remaining')) - 2)
    expect(JSON.parse(repeated.text).data.symbols.items.length).toBeGreaterThan(1)
    await expect
      .poll(() => sink.requests().find((l) => l.requestId === 'recorded-a'))
      .toMatchObject({
        method: 'POST',
        route: '/graphql',
        operation: 'Board',
        status: 200,
        sub: bank.clientId,
      })
    expect(await counterValue(server.services.metrics.httpRequests, { route: '/graphql', method: 'POST', status: '200' })).toBeGreaterThanOrEqual(3)
  })

  it('repeats a document selecting every catalog field of Symbol, fees and price band included', async () => {
    const currency = 'name { fa en } symbol precision icon isCrypto color unitValueIrr'
    const every =
      'uid createdAt updatedAt isDeleted metaData userId symbol pricePrecision quantityPrecision minOrderQuantity tickSize ' +
      'dailyFluctuationPriceLimitPercent makerFeePercent takerFeePercent description isActive referencePrice priceBand { min max } ' +
      `base { ${currency} } quote { ${currency} } properties { ${currency} }`
    const query = body(`query Everything { symbols(limit: 100) { total offset limit items { ${every} } } symbol(symbol: "USD-IRR") { ${every} } }`)
    const executed = await send(query)
    const repeated = await send(query)
    expect([executed.status, repeated.status]).toEqual([200, 200])
    expect([executed.recorded, repeated.recorded]).toEqual([false, true])
    expect(repeated.text).toBe(executed.text)
    const { data } = JSON.parse(repeated.text)
    expect(data.symbols.items.length).toBeGreaterThan(1)
    expect(data.symbol).toMatchObject({ symbol: 'USD-IRR', makerFeePercent: expect.any(String), takerFeePercent: expect.any(String) })
  })

  it('records each Accept, Content-Type and Origin apart, since Yoga answers each differently', async () => {
    const query = body('{ symbols(limit: 2) { items { symbol } } }')
    const variants: Record<string, string>[] = [
      {},
      { accept: 'application/graphql-response+json' },
      { 'content-type': 'application/json; charset=utf-8' },
      { origin: DASHBOARD },
      { origin: OPS },
      { origin: 'https://evil.example' },
    ]
    for (const headers of variants) {
      const first = await send(query, headers)
      expect(first.recorded, JSON.stringify(headers)).toBe(false)
      const again = await send(query, headers)
      expect(again.recorded, JSON.stringify(headers)).toBe(true)
      expect(stableHeaders(again.headers), JSON.stringify(headers)).toEqual(stableHeaders(first.headers))
      expect(again.text).toBe(first.text)
    }
    const negotiated = await send(query, { accept: 'application/graphql-response+json' })
    expect(negotiated.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8')
    expect((await send(query, { origin: DASHBOARD })).headers.get('access-control-allow-origin')).toBe(DASHBOARD)
    expect((await send(query, { origin: OPS })).headers.get('access-control-allow-origin')).toBe(OPS)
    expect((await send(query, { origin: 'https://evil.example' })).headers.get('access-control-allow-origin')).toBe('null')
    expect((await send(query)).headers.get('access-control-allow-origin')).toBeNull()
  })

  it('answers other variables of a recorded document before Yoga, exactly as Yoga answers them', async () => {
    const query = 'query Page($limit: Int, $offset: Int) { symbols(limit: $limit, offset: $offset) { total offset limit items { symbol tickSize } } }'
    // `extensions` is a parameter the fast path leaves to Yoga: the same request, answered by Yoga.
    const byYoga = (variables: object) => send(JSON.stringify({ query, variables, extensions: {} }))
    expect((await send(body(query, { limit: 1, offset: 0 }))).recorded).toBe(false)
    for (const [i, variables] of [{ limit: 2, offset: 1 }, { limit: 3 }, { limit: 1, offset: 2 }].entries()) {
      const id = `vars-${i}-${randomUUID()}`
      const fast = await send(body(query, variables), { 'x-request-id': id })
      const reference = await byYoga(variables)
      expect([fast.recorded, reference.recorded]).toEqual([true, false])
      expect(fast.status).toBe(200)
      expect(fast.text).toBe(reference.text)
      expect(stableHeaders(fast.headers)).toEqual(stableHeaders(reference.headers))
      expect(Number(reference.headers.get('ratelimit-remaining'))).toBe(Number(fast.headers.get('ratelimit-remaining')) - 1)
      expect(JSON.parse(fast.text).data.symbols.items).toHaveLength(variables.limit)
      await expect.poll(() => sink.requests().find((l) => l.requestId === id)).toMatchObject({ route: '/graphql', operation: 'Page', status: 200 })
    }
    // Results with errors are Yoga's to render. Every request is counted once, before it is
    // validated: variables that do not coerce too (docs/operations.md, "Rate limits").
    for (const variables of [{ limit: 'many' }, { limit: 101 }, { offset: -1 }]) {
      const refused = await send(body(query, variables))
      const reference = await byYoga(variables)
      expect(refused.recorded).toBe(false)
      expect(refused.status).toBe(reference.status)
      expect(refused.text).toBe(reference.text)
      expect(JSON.parse(refused.text).errors.length).toBeGreaterThan(0)
      const remaining = [refused, reference].map((sent) => sent.headers.get('ratelimit-remaining'))
      expect(Number(remaining[1])).toBe(Number(remaining[0]) - 1)
    }
  })

  it('answers documents of a known form (other aliases, spacing, comments) before Yoga, exactly as Yoga does', async () => {
    const top = (a: string, b: string) =>
      `query Board { ${a}: symbols(limit: 100) { total items { symbol } } ${b}: symbol(symbol: "BTC-USDT") { tickSize } __typename }`
    const nested = (a: string, b: string) => `query Board { symbols(limit: 3) { ${a}: total items { ${b}: symbol properties { symbol } } } }`
    for (const document of [top, nested]) {
      expect((await send(body(document('first', 'second')))).recorded).toBe(false)
      for (const [a, b] of [
        ['s1', 'btc'],
        ['s2', 's2b'],
        ['__proto__', 'x'],
      ]) {
        const query = `# ${a}\n${document(a!, b!)}`.replace(/ \{/g, ',{')
        const fast = await send(body(query))
        const reference = await send(JSON.stringify({ query, extensions: {} }))
        expect([fast.recorded, reference.recorded]).toEqual([true, false])
        expect(fast.status).toBe(200)
        expect(JSON.parse(reference.text).errors).toBeUndefined()
        expect(fast.text).toBe(reference.text)
        expect(stableHeaders(fast.headers)).toEqual(stableHeaders(reference.headers))
        // Its own bytes are then recorded, as any answer before Yoga is.
        expect(await send(body(query))).toMatchObject({ recorded: true, text: reference.text })
      }
    }
  })

  it('hands a refused caller to Yoga, counted once, with the answer it always got', async () => {
    const query = body('{ symbols(limit: 3) { total } }')
    await send(query)
    expect((await send(query)).recorded).toBe(true)
    const noScope = await createTestClient(server, { scopes: ['orders:read'] })
    for (const token of [null, 'not-a-token', `${bank.token.slice(0, -4)}AAAA`, noScope.token]) {
      const refused = await send(query, {}, token)
      expect(refused.recorded).toBe(false)
      expect(refused.status).toBe(token === noScope.token ? 403 : 401)
      expect(JSON.parse(refused.text).errors[0].extensions.code).toBe(token === noScope.token ? 'FORBIDDEN' : 'UNAUTHENTICATED')
    }
    // The caller without the scope was authenticated before the hand-over; Yoga must not count it again.
    const a = await send(query, {}, noScope.token)
    const b = await send(query, {}, noScope.token)
    expect(Number(b.headers.get('ratelimit-remaining'))).toBe(Number(a.headers.get('ratelimit-remaining')) - 1)
    expect(a.text).toBe(b.text)
  })

  it('stops repeating an answer once the catalog changes', async () => {
    const query = body('{ symbols(limit: 100) { items { symbol isActive } } }')
    const active = async () => {
      const sent = await send(query)
      return { recorded: sent.recorded, active: JSON.parse(sent.text).data.symbols.items.find((i: any) => i.symbol === 'BTC-USDT').isActive }
    }
    await active()
    expect(await active()).toEqual({ recorded: true, active: true })
    await setSymbolActive(server.services.db, 'BTC-USDT', false)
    try {
      let seen = { recorded: true, active: true }
      await expect.poll(async () => (seen = await active()).active, { timeout: 10_000 }).toBe(false)
      // The first answer after the change is freshly executed (before Yoga: a document's shape
      // outlives catalog changes, its results do not); then it is repeated.
      expect(seen.active).toBe(false)
      expect(await active()).toEqual({ recorded: true, active: false })
    } finally {
      await setSymbolActive(server.services.db, 'BTC-USDT', true)
    }
  })

  it('sends Yoga everything else unread: other bytes, a query string, large or chunked bodies', async () => {
    const query = '{ symbols(limit: 4) { total } }'
    const exact = body(query)
    await send(exact)
    expect((await send(exact)).recorded).toBe(true)
    expect((await send(body('{ symbols(limit: 5) { total } }'))).recorded).toBe(false)
    const padded = body(`${query}${' '.repeat(9000)}`)
    for (let i = 0; i < 3; i++) expect((await send(padded)).recorded).toBe(false)
    expect((await send(padded)).status).toBe(200)
    const withSearch = await fetch(`${server.url}/graphql?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bank.token}` },
      body: exact,
    })
    expect(withSearch.status).toBe(200)
    const before = await recordedAnswers()
    const chunked = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/graphql`,
        { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${bank.token}` } },
        (res) => {
          let text = ''
          res.on('data', (c) => (text += c)).on('end', () => resolve({ status: res.statusCode!, text }))
        },
      )
      req.on('error', reject)
      req.write(exact.slice(0, 10))
      req.end(exact.slice(10))
    })
    expect(chunked.status).toBe(200)
    expect(await recordedAnswers()).toBe(before)
    expect(JSON.parse(chunked.text).data.symbols.total).toBeGreaterThan(0)
  })

  it('answers a malformed body as Yoga does, and logs a caller who left mid-body as a 400', async () => {
    const malformed = await send('{"query": ')
    expect(malformed.status).toBe(400)
    expect(JSON.parse(malformed.text).errors[0].message).toBe('POST body sent invalid JSON.')
    const port = Number(new URL(server.url).port)
    for (const sentBody of ['', '{"query":']) {
      const id = `cut-${randomUUID()}`
      const head = `POST /graphql HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n${sentBody}`
      await sendRaw(port, Buffer.from(head), { end: true, timeoutMs: 5000 })
      await expect.poll(() => sink.requests().find((l) => l.requestId === id)).toMatchObject({ route: '/graphql', status: 400 })
    }
  })
})
