import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { MAX_BODY_BYTES } from '../src/http/request-body.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

/**
 * One request must never hold the process: each of these is answered, and /healthz (asked every
 * few milliseconds meanwhile) keeps answering, within a few times what a reference request of the
 * same size takes on this host right then — a megabyte carried through the stack and parsed, as
 * usual. Bounds relative to that measurement, never absolute milliseconds: a busy host slows the
 * reference as much as the request, while a request that held the event loop (a pattern
 * backtracking over a megabyte, a quadratic scan) takes orders of magnitude longer. The server runs
 * in this process, so a request that held the event loop would hold the health checks too.
 */
const TIMES_REFERENCE = 10
// A field's text that, with the rest of its JSON body, still fits the 1 MiB body limit.
const FIELD_BYTES = MAX_BODY_BYTES - 512
const huge = (last = '1') => '1'.repeat(FIELD_BYTES - 1) + last

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

interface Timed {
  status: number
  body: any
  ms: number
  /** The slowest /healthz answer while the request was in flight. */
  healthMs: number
}

/** Sends `send()` and, until it is answered, /healthz every 5 ms; times both. */
async function timed(send: () => Promise<{ status: number; body: any }>): Promise<Timed> {
  let done = false
  let healthMs = 0
  const health = (async () => {
    while (!done) {
      const started = performance.now()
      const res = await fetch(`${server.url}/healthz`)
      await res.arrayBuffer()
      healthMs = Math.max(healthMs, performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  })()
  const started = performance.now()
  const res = await send().finally(() => {
    done = true
  })
  const ms = performance.now() - started
  await health
  return { status: res.status, body: res.body, ms, healthMs }
}

/** A benign request of the same size: a megabyte the GraphQL endpoint reads, bounds, parses and ignores. */
const reference = () => graphql({ query: '{ health { status } }', variables: { unused: huge() } })

/**
 * A timing bound holds on one of three tries: a request that really holds the loop holds it every
 * time. Each try first times the reference request and bounds the request by it.
 */
async function withinBounds(send: () => Promise<{ status: number; body: any }>): Promise<Timed> {
  let last: Timed | undefined
  let bounds = { answer: 0, health: 0 }
  for (let attempt = 0; attempt < 3; attempt++) {
    const usual = await timed(reference)
    expect(usual.status).toBe(200)
    bounds = { answer: TIMES_REFERENCE * usual.ms, health: TIMES_REFERENCE * usual.healthMs }
    last = await timed(send)
    if (last.ms < bounds.answer && last.healthMs < bounds.health) return last
  }
  throw new Error(
    `answered in ${last!.ms.toFixed(0)} ms (bound ${bounds.answer.toFixed(0)}), /healthz at worst ${last!.healthMs.toFixed(0)} ms (bound ${bounds.health.toFixed(0)})`,
  )
}

const graphql = (body: unknown, token?: string) =>
  fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, body: await res.json() }))

const post = (path: string, body: string | Uint8Array, token?: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body as BodyInit,
  }).then(async (res) => ({ status: res.status, body: await res.json() }))

describe('long inputs are answered at once, the process serving others meanwhile', () => {
  it('a 1 MiB Decimal literal in a GraphQL document, without a token', async () => {
    // A new document each try: Yoga keeps the outcome of validating a document it has seen.
    let tries = 0
    const query = () =>
      `mutation { createOrder(input: { symbol: "USD-IRR", side: buy, type: limit, quantity: "${huge('x')}", price: "1" }) { order { uid } } } # ${++tries}`
    const res = await withinBounds(() => graphql({ query: query() }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ errors: [{ message: 'Decimal must be a string such as "12.50"', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] })
  })

  it('a 1 MiB Decimal variable, with a token', async () => {
    const query = 'mutation($q: Decimal!) { createOrder(input: { symbol: "USD-IRR", side: buy, type: limit, quantity: $q, price: "1" }) { order { uid } } }'
    const res = await withinBounds(() => graphql({ query, variables: { q: huge('x') } }, bank.token))
    expect(res.status).toBe(400)
    expect(res.body.errors).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^Variable "\$q" got invalid value "1{20}.*Decimal must be a string such as "12.50"$/s) }),
    ])
  })

  it('a 1 MiB decimal that is valid text is refused by its length, not parsed', async () => {
    const query = 'mutation($q: Decimal!) { createOrder(input: { symbol: "USD-IRR", side: buy, type: limit, quantity: $q, price: "1" }) { order { uid } } }'
    const res = await withinBounds(() => graphql({ query, variables: { q: huge() } }, bank.token))
    expect(res.status).toBe(400)
    expect(res.body.errors[0].message).toMatch(/Decimal must be a string such as "12.50"$/)
  })

  it('a 1 MiB body whose last byte is not UTF-8', async () => {
    const bytes = Buffer.from(JSON.stringify({ client_id: huge(), client_secret: 'x' }))
    bytes[bytes.length - 3] = 0xff
    const res = await withinBounds(() => post('/api/sso/v1/auth/login', bytes))
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      detail: [{ type: 'json_invalid', loc: ['body', bytes.length - 3], msg: 'JSON decode error', input: {}, ctx: { error: 'Invalid UTF-8' } }],
    })
  })

  it('the same body to a protected route, with a token', async () => {
    const bytes = Buffer.from(JSON.stringify({ username: huge(), email: 'a@b.example' }))
    bytes[bytes.length - 3] = 0xc3
    const res = await withinBounds(() => post('/api/user/v1/users', bytes, bank.token))
    expect(res.status).toBe(422)
    expect(res.body.detail[0]).toMatchObject({ type: 'json_invalid', loc: ['body', bytes.length - 3], ctx: { error: 'Invalid UTF-8' } })
  })

  const maxLength = (field: string, limit: number) => ({ type: 'value_error.any_str.max_length', loc: ['body', field], ctx: { limit_value: limit } })
  const order = { symbol: 'USD-IRR', side: 'buy', type: 'limit', quantity: '1000', price: '1050000' }
  it.each([
    ['/api/sso/v1/auth/login', 'client_id', { client_id: '', client_secret: 'x' }, 422, maxLength('client_id', 256)],
    ['/api/sso/v1/auth/login', 'client_secret', { client_id: 'x', client_secret: '' }, 422, maxLength('client_secret', 256)],
    ['/api/sso/v1/auth/refresh', 'refresh_token', { refresh_token: '' }, 401, undefined],
    ['/api/exchange/v1/orders', 'client_order_id', { ...order, client_order_id: '' }, 422, maxLength('client_order_id', 64)],
    ['/api/exchange/v1/orders', 'symbol', order, 422, maxLength('symbol', 32)],
    ['/api/exchange/v1/orders', 'side', order, 422, { type: 'type_error.enum', loc: ['body', 'side'] }],
    ['/api/exchange/v1/orders', 'type', order, 422, { type: 'type_error.enum', loc: ['body', 'type'] }],
    ['/api/exchange/v1/orders', 'quantity', order, 422, maxLength('quantity', 40)],
    ['/api/exchange/v1/orders', 'price', order, 422, maxLength('price', 40)],
    ['/api/user/v1/users', 'username', { username: '', email: 'a@b.example' }, 422, maxLength('username', 64)],
    ['/api/user/v1/users', 'email', { username: 'abc', email: '' }, 422, maxLength('email', 254)],
  ])('%s with 1 MiB in %s', async (path, field, base, status, issue) => {
    const body = JSON.stringify({ ...base, [field]: huge() })
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_BODY_BYTES)
    const res = await withinBounds(() => post(path, body, path.includes('/auth/') ? undefined : bank.token))
    expect(res.status).toBe(status)
    if (status === 401) expect(res.body).toEqual({ message: 'JWT has an invalid format', error: 'Unauthorized', detail: 'JWT has an invalid format' })
    else expect(res.body.detail).toContainEqual(expect.objectContaining(issue))
    // Nothing of the megabyte is echoed back.
    expect(JSON.stringify(res.body).length).toBeLessThan(2048)
  })

  it('1 MiB in a GraphQL list filter and an order uid', async () => {
    const list = await withinBounds(() =>
      graphql({ query: 'query($s: String) { orders(filter: { symbol: $s }) { total } }', variables: { s: huge() } }, bank.token),
    )
    expect(list.status).toBe(422)
    expect(list.body.errors[0].extensions.detail).toEqual([expect.objectContaining({ type: 'value_error.any_str.max_length', loc: ['query', 'symbol'] })])
    const one = await withinBounds(() => graphql({ query: 'query($u: ID!) { order(uid: $u) { uid } }', variables: { u: huge() } }, bank.token))
    expect(one.status).toBe(200)
    expect(one.body).toEqual({ data: { order: null } })
    for (const res of [list, one]) expect(JSON.stringify(res.body).length).toBeLessThan(2048)
  })
})

describe('protected routes authenticate before they read the body', () => {
  it.each([
    ['POST', '/api/exchange/v1/orders'],
    ['POST', '/api/user/v1/users'],
  ])('%s %s answers 401 for a missing or bad token, whatever the body', async (method, path) => {
    for (const body of ['{"not json', '{}', JSON.stringify({ username: 'x'.repeat(100) })]) {
      const missing = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body })
      expect(missing.status).toBe(401)
      expect(await missing.json()).toEqual({ message: 'No token provided', error: 'Unauthorized', detail: 'No token provided' })
      const bad = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'text/plain', authorization: 'Bearer a.b.c' }, body })
      expect(bad.status).toBe(401)
      expect(await bad.json()).toEqual({ message: 'JWT has an invalid format', error: 'Unauthorized', detail: 'JWT has an invalid format' })
    }
  })

  it('answers a missing scope (403) before the body too', async () => {
    const reader = await createTestClient(server, { scopes: ['symbols:read'] })
    const res = await post('/api/user/v1/users', '{"not json', reader.token)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'Access denied: requires users:write', error: 'permission_denied', detail: 'Access denied: requires users:write' })
  })
})

describe('calls without a valid token are limited per address, on both faces', () => {
  let limited: TestServer
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMIT_ANON_PER_MIN: '3', TRUST_PROXY: 'true' })
  })
  afterAll(async () => {
    await limited?.close()
  })
  const from = (ip: string, token?: string) => ({ headers: { 'x-forwarded-for': ip, ...(token ? { authorization: `Bearer ${token}` } : {}) } })

  it('counts GraphQL without a token and REST with a missing or bad one, then answers 429 before any work', async () => {
    const bank = await createTestClient(limited)
    const ip = '203.0.113.40'
    expect((await limited.graphql('{ health { status } }', undefined, from(ip))).status).toBe(200)
    const badToken = await limited.request('GET', '/api/exchange/v1/symbols', { headers: { 'x-forwarded-for': ip, authorization: 'Bearer a.b.c' } })
    expect(badToken.status).toBe(401)
    expect(badToken.headers.get('ratelimit-remaining')).toBe('1')
    expect((await limited.request('GET', '/api/exchange/v1/symbols', from(ip))).status).toBe(401)

    const rest = await limited.request('GET', '/api/exchange/v1/symbols', from(ip))
    expect(rest.status).toBe(429)
    expect(rest.body).toEqual({ message: 'Too many requests', error: 'rate_limited', detail: 'Too many requests' })
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    const gql = await limited.graphql('{ health { status } }', undefined, from(ip))
    expect(gql.status).toBe(429)
    expect(gql.errors).toEqual([{ message: 'Too many requests', extensions: { code: 'RATE_LIMITED', error: 'rate_limited' } }])
    expect(gql.headers.get('ratelimit-remaining')).toBe('0')
    const badGql = await limited.graphql('{ viewer { uid } }', undefined, from(ip, 'a.b.c'))
    expect(badGql.status).toBe(429)

    // A valid token, the login route and the health checks are not anonymous calls.
    expect((await limited.request('GET', '/api/exchange/v1/symbols', from(ip, bank.token))).status).toBe(200)
    expect((await limited.graphql('{ viewer { uid } }', undefined, from(ip, bank.token))).data).toEqual({ viewer: { uid: bank.clientId } })
    const login = await limited.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.clientId, client_secret: bank.clientSecret }, ...from(ip) })
    expect(login.status).toBe(200)
    expect((await limited.request('GET', '/healthz', from(ip))).status).toBe(200)
    // Another address has its own allowance.
    expect((await limited.request('GET', '/api/exchange/v1/symbols', from('203.0.113.41'))).status).toBe(401)
  })
})

describe('the API limit counts work, not requests', () => {
  let limited: TestServer
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMIT_API_PER_MIN: '10' })
    await seedDemoMarket(limited.services.db)
  })
  afterAll(async () => {
    await limited?.close()
  })

  const aliased = (n: number, tag: string) =>
    `mutation { ${Array.from({ length: n }, (_, i) => `o${i}: createOrder(input: { clientOrderId: "${tag}-${i}", symbol: "USD-IRR", side: buy, type: limit, quantity: "1000", price: "1050000" }) { order { uid } }`).join(' ')} }`
  const ordersOf = async (tenantId: string) => (await limited.services.db.selectFrom('orders').select('uid').where('tenant_id', '=', tenantId).execute()).length

  it('counts each root mutation field as a call and refuses a request over the allowance whole', async () => {
    const bank = await createTestClient(limited)
    const refused = await limited.graphql(aliased(11, 'a'), undefined, { token: bank.token })
    expect(refused.status).toBe(429)
    expect(refused.data).toBeUndefined()
    expect(refused.errors).toEqual([{ message: 'Too many requests', extensions: { code: 'RATE_LIMITED', error: 'rate_limited' } }])
    expect(await ordersOf(bank.tenantId)).toBe(0)

    // Refused whole, it cost nothing: ten calls are still there for ten fields.
    const placed = await limited.graphql(aliased(10, 'b'), undefined, { token: bank.token })
    expect(placed.status).toBe(200)
    expect(Object.keys(placed.data as object)).toHaveLength(10)
    expect(placed.headers.get('ratelimit-remaining')).toBe('0')
    expect(await ordersOf(bank.tenantId)).toBe(10)
    const next = await limited.request('GET', '/api/exchange/v1/orders', { token: bank.token })
    expect(next.status).toBe(429)
  })
})

// Side by side: each test waits out a real lifetime on a server of its own (a session of 3 s, a
// token of 1 s), so run together the file waits for the longer one only.
describe.concurrent('sessions and tokens have lifetimes operators can set in seconds', () => {
  const UNAUTHORIZED = (message: string) => ({ message, error: 'Unauthorized', detail: message })
  const sleepUntil = (unixSeconds: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, unixSeconds * 1000 - Date.now() + 50)))

  it('a session ends SESSION_MAX_AGE after login however often it is refreshed, and no token outlives it', async () => {
    const short = await startTestServer({ SESSION_MAX_AGE: '3', CLOCK_SKEW: '0' })
    try {
      const bank = await createTestClient(short)
      const login = await short.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.clientId, client_secret: bank.clientSecret } })
      expect(login.status).toBe(200)
      const end = login.body.iat + 3
      expect(login.body.exp).toBe(end)
      expect(login.body.expires_in).toBe(end - login.body.iat)
      const refreshed = await short.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: login.body.tokens.refresh } })
      expect(refreshed.status).toBe(200)
      expect(refreshed.body.expires_in).toBeLessThanOrEqual(3)
      for (const token of [refreshed.body.tokens.access, refreshed.body.tokens.refresh]) {
        const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())
        expect(claims.exp).toBe(end)
      }
      await sleepUntil(end)
      const over = await short.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: refreshed.body.tokens.refresh } })
      expect(over.status).toBe(401)
      expect(over.body).toEqual(UNAUTHORIZED('JWT has an invalid format'))
      const access = await short.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token: refreshed.body.tokens.access })
      expect(access.status).toBe(401)
      expect(access.body).toEqual(UNAUTHORIZED('JWT has expired'))
    } finally {
      await short.close()
    }
  })

  it('an ACCESS_TOKEN_TTL of 1 second expires the access token in a second', async () => {
    const short = await startTestServer({ ACCESS_TOKEN_TTL: '1', CLOCK_SKEW: '0' })
    try {
      const bank = await createTestClient(short)
      const login = await short.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.clientId, client_secret: bank.clientSecret } })
      expect(login.body.expires_in).toBe(1)
      expect(login.body.exp - login.body.iat).toBe(1)
      await sleepUntil(login.body.exp)
      const expired = await short.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token: login.body.tokens.access })
      expect(expired.status).toBe(401)
      expect(expired.body).toEqual(UNAUTHORIZED('JWT has expired'))
      const refreshed = await short.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: login.body.tokens.refresh } })
      expect(refreshed.status).toBe(200)
      expect(refreshed.body.expires_in).toBe(1)
    } finally {
      await short.close()
    }
  })
})
