import { randomUUID } from 'node:crypto'

import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { DEFAULT_RELOAD_INTERVALS } from '../src/app/services.ts'
import { deactivateClient, revokeSessionsOfClient, rotateClientSecret } from '../src/modules/auth/clients/clients.ts'
import { RevocationCache } from '../src/modules/auth/sessions/revocations.ts'
import { createTestClient } from './helpers/auth.ts'
import { eventually } from './helpers/eventually.ts'
import { SHORT_RELOAD_MS, startTestServer, type TestServer } from './helpers/server.ts'

const REVOKED = { message: 'JWT has been revoked', error: 'Unauthorized', detail: 'JWT has been revoked' }

// Only how long a test waits before failing when reloads are broken.
const GIVE_UP_MS = 5000

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({}, undefined, { intervals: { revocations: SHORT_RELOAD_MS } })
})
afterAll(async () => {
  await server?.close()
})

const whoAmI = (clientId: string, token: string) => server.request('GET', `/api/sso/v1/users/${clientId}`, { token })

/** Waits for `token` to be refused as revoked (after the next reload). */
async function expectRefused(clientId: string, token: string) {
  const res = await eventually(
    async () => {
      const r = await whoAmI(clientId, token)
      return r.status === 200 ? undefined : r
    },
    GIVE_UP_MS,
    SHORT_RELOAD_MS / 2,
  )
  expect(res.status).toBe(401)
  expect(res.body).toEqual(REVOKED)
}

describe('revocation reaches running servers at their next reload', () => {
  it('reloads often enough by default to keep the 5 s of docs/api.md', () => {
    expect(DEFAULT_RELOAD_INTERVALS.revocations).toBeLessThanOrEqual(5000)
  })

  it('refuses the access tokens of a client deactivated outside the server (CLI)', async () => {
    const bank = await createTestClient(server)
    expect((await whoAmI(bank.clientId, bank.token)).status).toBe(200)
    await deactivateClient(server.services.db, bank.clientId)
    await expectRefused(bank.clientId, bank.token)
    const login = await server.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.clientId, client_secret: bank.clientSecret } })
    expect(login.status).toBe(401)
  })

  it('refuses the access tokens of a session revoked outside the server', async () => {
    const bank = await createTestClient(server)
    const second = await server.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.clientId, client_secret: bank.clientSecret } })
    expect((await whoAmI(bank.clientId, bank.token)).status).toBe(200)
    await server.services.db
      .updateTable('sessions')
      .set({ revoked_at: sql<string>`timezone('utc', now())`, revoked_reason: 'test' })
      .where('id', '=', second.body.session_id)
      .execute()
    await expectRefused(bank.clientId, second.body.tokens.access)
    expect((await whoAmI(bank.clientId, bank.token)).status).toBe(200) // the other session lives on
  })
})

describe('a new secret or an operator ends the sessions of a client', () => {
  const refresh = (refresh_token: string) => server.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token } })
  const login = (client_id: string, client_secret: string) => server.request('POST', '/api/sso/v1/auth/login', { body: { client_id, client_secret } })

  it('rotate-secret refuses the old access and refresh tokens, and the new secret works', async () => {
    const bank = await createTestClient(server)
    const other = await createTestClient(server)
    const session = (await login(bank.clientId, bank.clientSecret)).body
    // As the CLI does it, from outside the server: the server learns of it only from the database.
    const rotated = await rotateClientSecret(server.services.db, bank.clientId)
    expect(rotated).toEqual({ client_id: bank.clientId, client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), revoked_sessions: 2 })
    await expectRefused(bank.clientId, session.tokens.access)
    await expectRefused(bank.clientId, bank.token)
    const refused = await refresh(session.tokens.refresh)
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual({ message: 'JWT has an invalid format', error: 'Unauthorized', detail: 'JWT has an invalid format' })
    expect((await login(bank.clientId, bank.clientSecret)).status).toBe(401)
    const fresh = await login(bank.clientId, rotated.client_secret)
    expect(fresh.status).toBe(200)
    expect((await whoAmI(bank.clientId, fresh.body.tokens.access)).status).toBe(200)
    expect((await refresh(fresh.body.tokens.refresh)).status).toBe(200)
    // Another client is untouched.
    expect((await whoAmI(other.clientId, other.token)).status).toBe(200)
  })

  it('revoke-sessions ends every session and keeps the secret', async () => {
    const bank = await createTestClient(server)
    const session = (await login(bank.clientId, bank.clientSecret)).body
    expect(await revokeSessionsOfClient(server.services.db, bank.clientId)).toEqual({ client_id: bank.clientId, revoked_sessions: 2 })
    await expectRefused(bank.clientId, session.tokens.access)
    expect((await refresh(session.tokens.refresh)).status).toBe(401)
    const again = await login(bank.clientId, bank.clientSecret)
    expect(again.status).toBe(200)
    expect((await whoAmI(bank.clientId, again.body.tokens.access)).status).toBe(200)
    await expect(revokeSessionsOfClient(server.services.db, randomUUID())).rejects.toThrow(/does not exist/)
  })
})

describe('RevocationCache', () => {
  it('holds sessions revoked within the access lifetime and inactive clients', async () => {
    const { db } = server.services
    const bank = await createTestClient(server)
    const recent = await server.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.clientId, client_secret: bank.clientSecret } })
    const old = await server.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.clientId, client_secret: bank.clientSecret } })
    const revokeAgo = (sessionId: string, seconds: number) =>
      db
        .updateTable('sessions')
        .set({ revoked_at: sql<string>`timezone('utc', now()) - make_interval(secs => ${seconds})` })
        .where('id', '=', sessionId)
        .execute()
    // Window: 30 s lifetime + 0 skew + 60 s margin.
    await revokeAgo(recent.body.session_id, 80)
    await revokeAgo(old.body.session_id, 100)
    const cache = new RevocationCache(db, { accessTokenTtl: 30, clockSkew: 0 })
    await cache.reload()
    expect(cache.isRevoked(recent.body.session_id, bank.clientId)).toBe(true)
    expect(cache.isRevoked(old.body.session_id, bank.clientId)).toBe(false)
    expect(cache.isRevoked(randomUUID(), bank.clientId)).toBe(false)
    await deactivateClient(db, bank.clientId)
    await cache.reload()
    expect(cache.isRevoked(randomUUID(), bank.clientId)).toBe(true)
  })

  it('keeps what this process revoked across reloads that did not see it yet', async () => {
    const cache = new RevocationCache(server.services.db, { accessTokenTtl: 600, clockSkew: 30 })
    const sessionId = randomUUID()
    const clientId = randomUUID()
    cache.revokeSession(sessionId)
    cache.markClientInactive(clientId)
    await cache.reload()
    expect(cache.isRevoked(sessionId, randomUUID())).toBe(true)
    expect(cache.isRevoked(randomUUID(), clientId)).toBe(true)
  })
})
