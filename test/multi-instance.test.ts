import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient } from './helpers/auth.ts'
import { onPostgres } from './helpers/database.ts'
import { type ServerProcess, startServerProcess } from './helpers/process.ts'
import { startTestServer, TEST_BASE_URL, type TestServer } from './helpers/server.ts'

const redisUrl = process.env.REDIS_TEST_URL || undefined
const API_LIMIT = 6

// Two processes on one PostgreSQL and one Redis behave as one service (docs/operations.md, "Running N instances"). Revocation
// across processes is proven in auth-multiprocess.test.ts.
describe.skipIf(!onPostgres || !redisUrl)('two instances on one PostgreSQL and one Redis', () => {
  let a: TestServer
  let b: ServerProcess
  beforeAll(async () => {
    const shared = { REDIS_URL: redisUrl!, RATE_LIMIT_API_PER_MIN: String(API_LIMIT) }
    a = await startTestServer(shared)
    await seedDemoMarket(a.services.db)
    b = await startServerProcess({ ...shared, DATABASE_URL: a.database.databaseUrl!, DATA_DIR: a.database.dataDir, PUBLIC_BASE_URL: TEST_BASE_URL })
  }, 90_000)
  afterAll(async () => {
    await b?.stop()
    await a?.close()
  })

  const get = (base: string, path: string, token: string) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })
  const refresh = (base: string, token: string) =>
    fetch(`${base}/api/sso/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: token }),
    })

  it('accepts on one instance a token issued by the other', async () => {
    const client = await createTestClient(a)
    const login = await fetch(`${b.url}/api/sso/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: client.clientId, client_secret: client.clientSecret }),
    })
    expect(login.status).toBe(200)
    const { tokens } = await login.json()
    const res = await get(a.url, '/api/exchange/v1/symbols?limit=1', tokens.access)
    expect(res.status).toBe(200)
    expect((await res.json()).total).toBeGreaterThanOrEqual(8)
  })

  it('lets a refresh token be used once across both instances', async () => {
    const client = await createTestClient(a)
    const login = await a.request('POST', '/api/sso/v1/auth/login', { body: { client_id: client.clientId, client_secret: client.clientSecret } })
    const token = login.body.tokens.refresh
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => refresh(i % 2 ? a.url : b.url, token)))
    const statuses = answers.map((r) => r.status).sort()
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 401)).toHaveLength(19)
  })

  it('shares one rate limit between the instances', async () => {
    const client = await createTestClient(a)
    const statuses: number[] = []
    for (let i = 0; i < API_LIMIT; i++) statuses.push((await get(i % 2 ? a.url : b.url, '/api/exchange/v1/symbols?limit=1', client.token)).status)
    expect(statuses).toEqual(Array(API_LIMIT).fill(200))
    const onA = await get(a.url, '/api/exchange/v1/symbols?limit=1', client.token)
    const onB = await get(b.url, '/api/exchange/v1/symbols?limit=1', client.token)
    expect([onA.status, onB.status]).toEqual([429, 429])
    expect(await onB.json()).toEqual({ message: 'Too many requests', error: 'rate_limited', detail: 'Too many requests' })
  })

  it('refuses tokens issued under another PUBLIC_BASE_URL (its default names the port), so every instance needs the same one', async () => {
    // What two instances on ports 4000 and 4001 without PUBLIC_BASE_URL would name themselves.
    const other = await startTestServer({ PUBLIC_BASE_URL: 'http://localhost:4001' }, a.database)
    try {
      const client = await createTestClient(a)
      const there = await get(other.url, '/api/exchange/v1/symbols?limit=1', client.token)
      expect(there.status).toBe(401)
      const back = await createTestClient(other)
      expect((await get(a.url, '/api/exchange/v1/symbols?limit=1', back.token)).status).toBe(401)
      expect((await get(other.url, '/api/exchange/v1/symbols?limit=1', back.token)).status).toBe(200)
    } finally {
      await other.stop()
    }
  })
})
