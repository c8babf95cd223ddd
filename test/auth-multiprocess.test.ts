import { decodeJwt, decodeProtectedHeader } from 'jose'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestClient, type TestClient } from './helpers/auth.ts'
import { onPostgres } from './helpers/database.ts'
import { eventually } from './helpers/eventually.ts'
import { runCli, type ServerProcess, startServerProcess } from './helpers/process.ts'
import { startTestServer, TEST_BASE_URL, type TestServer } from './helpers/server.ts'

const REVOKED = { message: 'JWT has been revoked', error: 'Unauthorized', detail: 'JWT has been revoked' }

// PGlite serves one process; two servers on one database need PostgreSQL.
describe.skipIf(!onPostgres)('two server processes on one PostgreSQL database', () => {
  let a: TestServer
  let b: ServerProcess
  let env: Record<string, string>

  beforeAll(async () => {
    a = await startTestServer()
    env = { DATABASE_URL: a.database.databaseUrl!, DATA_DIR: a.database.dataDir, PUBLIC_BASE_URL: TEST_BASE_URL }
    b = await startServerProcess(env)
  }, 90_000)
  afterAll(async () => {
    await b?.stop()
    await a?.close()
  })

  const call = (base: string, method: string, path: string, options: { body?: unknown; token?: string } = {}) =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }))

  const login = async (base: string, client: TestClient) => {
    const res = await call(base, 'POST', '/api/sso/v1/auth/login', { body: { client_id: client.clientId, client_secret: client.clientSecret } })
    expect(res.status).toBe(200)
    return res.body as { session_id: string; tokens: { access: string; refresh: string } }
  }
  const whoAmI = (base: string, client: TestClient, token: string) => call(base, 'GET', `/api/sso/v1/users/${client.clientId}`, { token })

  async function refusedWithin(base: string, client: TestClient, token: string, timeoutMs: number) {
    const started = Date.now()
    const res = await eventually(async () => {
      const r = await whoAmI(base, client, token)
      return r.status === 200 ? undefined : r
    }, timeoutMs)
    expect(res).toEqual({ status: 401, body: REVOKED })
    return Date.now() - started
  }

  it('accepts the tokens of one process on the other', async () => {
    const bank = await createTestClient(a)
    const fromB = await login(b.url, bank)
    expect((await whoAmI(a.url, bank, fromB.tokens.access)).status).toBe(200)
    expect((await whoAmI(b.url, bank, bank.token)).status).toBe(200)
  })

  it('lets a refresh token be used once across both processes', async () => {
    const bank = await createTestClient(a)
    const { tokens } = await login(a.url, bank)
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(i % 2 ? a.url : b.url, 'POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: tokens.refresh } })),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.status === 401)).toHaveLength(19)
  })

  it('accepts tokens signed after a key rotation done elsewhere', async () => {
    const bank = await createTestClient(a)
    const before = (await login(a.url, bank)).tokens.access
    const { kid } = JSON.parse((await runCli(['keys', 'rotate'], env)).stdout)
    expect(kid).not.toBe(decodeProtectedHeader(before).kid)

    // A signs with the new key at once; B has never seen it and must accept it straight away.
    await a.services.keys.reload()
    const fromA = (await login(a.url, bank)).tokens.access
    expect(decodeProtectedHeader(fromA).kid).toBe(kid)
    expect((await whoAmI(b.url, bank, fromA)).status).toBe(200)

    // B moves to the new key by itself within its reload interval; old tokens keep working.
    const fromB = await eventually(
      async () => {
        const token = (await login(b.url, bank)).tokens.access
        return decodeProtectedHeader(token).kid === kid ? token : undefined
      },
      10_000,
      250,
    )
    expect((await whoAmI(a.url, bank, fromB)).status).toBe(200)
    for (const base of [a.url, b.url]) expect((await whoAmI(base, bank, before)).status).toBe(200)
    const jwks = await call(b.url, 'GET', '/.well-known/jwks.json')
    expect(jwks.body.keys.map((k: { kid: string }) => k.kid)).toContain(kid)
  })

  it('refuses on every process, within 5 s, the tokens of a client deactivated by the CLI', async () => {
    const bank = await createTestClient(a)
    const fromB = (await login(b.url, bank)).tokens.access
    for (const base of [a.url, b.url]) for (const token of [bank.token, fromB]) expect((await whoAmI(base, bank, token)).status).toBe(200)
    await runCli(['client', 'deactivate', bank.clientId], env)
    const waits = await Promise.all([
      refusedWithin(a.url, bank, bank.token, 5000),
      refusedWithin(b.url, bank, bank.token, 5000),
      refusedWithin(a.url, bank, fromB, 5000),
      refusedWithin(b.url, bank, fromB, 5000),
    ])
    for (const ms of waits) expect(ms).toBeLessThan(5000)
  })

  it('refuses on every process, within 5 s, the tokens of a session revoked for refresh-token reuse', async () => {
    const bank = await createTestClient(a)
    const session = await login(a.url, bank)
    expect((await whoAmI(b.url, bank, session.tokens.access)).status).toBe(200)
    const rotated = await call(a.url, 'POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: session.tokens.refresh } })
    expect(rotated.status).toBe(200)
    await a.services.db
      .updateTable('refresh_tokens')
      .set({ used_at: sql<string>`timezone('utc', now()) - interval '1 minute'` })
      .where('jti', '=', decodeJwt(session.tokens.refresh).jti!)
      .execute()

    const replay = await call(a.url, 'POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: session.tokens.refresh } })
    expect(replay.status).toBe(401)
    // At once where it was detected; within 5 s elsewhere.
    expect(await whoAmI(a.url, bank, session.tokens.access)).toEqual({ status: 401, body: REVOKED })
    expect(await refusedWithin(b.url, bank, rotated.body.tokens.access, 5000)).toBeLessThan(5000)
    expect(await whoAmI(b.url, bank, bank.token)).toMatchObject({ status: 200 }) // another session
  })
})
