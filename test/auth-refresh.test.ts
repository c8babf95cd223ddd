import { createHash, randomUUID } from 'node:crypto'

import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createClient, deactivateClient } from '../src/modules/auth/clients/clients.ts'
import { rotateSigningKeys } from '../src/modules/auth/keys/signing-keys.ts'
import { timestampAt } from '../src/modules/auth/sessions/session-tokens.ts'
import { findSession, listRefreshTokens } from '../src/modules/auth/sessions/sessions.repository.ts'
import { signRefreshToken } from '../src/modules/auth/tokens/tokens.ts'
import { OrdersDocument, RefreshDocument } from './generated/graphql.ts'
import { startTestServer, TEST_BASE_URL, type TestServer } from './helpers/server.ts'

const INVALID = { message: 'JWT has an invalid format', error: 'Unauthorized', detail: 'JWT has an invalid format' }
const REVOKED = { message: 'JWT has been revoked', error: 'Unauthorized', detail: 'JWT has been revoked' }

let server: TestServer
let bank: Awaited<ReturnType<typeof createClient>>

beforeAll(async () => {
  server = await startTestServer()
  bank = await createClient(server.services.db, { name: 'Bank Saderat' })
})
afterAll(async () => {
  await server?.close()
})

async function login(client = bank) {
  const res = await server.request('POST', '/api/sso/v1/auth/login', { body: { client_id: client.client_id, client_secret: client.client_secret } })
  expect(res.status).toBe(200)
  return res.body as { session_id: string; tokens: { access: string; refresh: string } }
}

const refresh = (refreshToken: unknown, path = '/api/sso/v1/auth/refresh') => server.request('POST', path, { body: { refresh_token: refreshToken } })

const whoAmI = (token: string) => server.request('GET', `/api/sso/v1/users/${bank.client_id}`, { token })

/** The roles and scopes an access token carries. */
function claimsOf(token: string) {
  const { roles, scopes } = decodeJwt(token) as { roles: string[]; scopes: string[] }
  return { roles, scopes }
}

/** Pretends the refresh token `jti` was used `seconds` ago. */
async function backdateUse(jti: string, seconds: number) {
  await server.services.db
    .updateTable('refresh_tokens')
    .set({ used_at: sql<string>`timezone('utc', now()) - make_interval(secs => ${seconds})` })
    .where('jti', '=', jti)
    .execute()
}

describe('POST /api/sso/v1/auth/refresh', () => {
  it('answers 200 with status, a new token pair in the same session and expires_in', async () => {
    const first = await login()
    const res = await refresh(first.tokens.refresh)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'refreshed', tokens: { access: expect.any(String), refresh: expect.any(String) }, expires_in: 600 })
    expect(Object.keys(res.body)).toEqual(['status', 'tokens', 'expires_in'])
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('pragma')).toBe('no-cache')

    const access = decodeJwt(res.body.tokens.access)
    const next = decodeJwt(res.body.tokens.refresh)
    expect(decodeProtectedHeader(res.body.tokens.access).typ).toBe('at+jwt')
    expect(access).toMatchObject({
      iss: TEST_BASE_URL,
      sub: bank.client_id,
      aud: TEST_BASE_URL,
      token_type: 'access',
      session_id: first.session_id,
      tenant_id: bank.tenant_id,
      roles: ['client'],
      amr: ['client_secret'],
      client_id: bank.client_id,
    })
    expect(access.exp! - access.iat!).toBe(600)
    expect(next).toMatchObject({ token_type: 'refresh', session_id: first.session_id, sub: bank.client_id })
    expect(next.exp! - next.iat!).toBe(604_800)
    expect(res.body.tokens.refresh).not.toBe(first.tokens.refresh)

    // The old token is used, its successor is live, and the session lasts as long as the successor.
    const rows = await listRefreshTokens(server.services.db, first.session_id)
    const previousJti = decodeJwt(first.tokens.refresh).jti
    expect(rows.map((r) => [r.jti, r.used_at === null, r.revoked_at])).toEqual([
      [previousJti, false, null],
      [next.jti, true, null],
    ])
    expect(rows[1]!.expires_at).toBe(timestampAt(next.exp!))
    expect((await findSession(server.services.db, first.session_id))!.expires_at).toBe(timestampAt(next.exp!))

    // Both access tokens work: a refresh does not end the earlier access token's life.
    expect((await whoAmI(first.tokens.access)).status).toBe(200)
    expect((await whoAmI(res.body.tokens.access)).status).toBe(200)
  })

  it('accepts the /api/auth/v1/refresh alias and chains refreshes', async () => {
    let tokens = (await login()).tokens
    for (let i = 0; i < 3; i++) {
      const res = await refresh(tokens.refresh, '/api/auth/v1/refresh')
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-store')
      tokens = res.body.tokens
    }
    expect((await whoAmI(tokens.access)).status).toBe(200)
  })

  it("signs each access token with the client's roles and scopes as the rotation reads them, also when they changed since the last refresh", async () => {
    const other = await createClient(server.services.db, { name: 'Bank Sepah' })
    const first = await login(other)
    const second = await refresh(first.tokens.refresh)
    expect(second.status).toBe(200)
    expect(claimsOf(second.body.tokens.access)).toEqual({ roles: other.roles, scopes: other.scopes })

    await server.services.db
      .updateTable('clients')
      .set({ roles: ['client', 'admin'], scopes: ['symbols:read'] })
      .where('id', '=', other.client_id)
      .execute()
    const third = await refresh(second.body.tokens.refresh)
    expect(third.status).toBe(200)
    expect(claimsOf(third.body.tokens.access)).toEqual({ roles: ['client', 'admin'], scopes: ['symbols:read'] })
    const fourth = await refresh(third.body.tokens.refresh)
    expect(claimsOf(fourth.body.tokens.access)).toEqual({ roles: ['client', 'admin'], scopes: ['symbols:read'] })
    const orders = await server.request('GET', '/api/exchange/v1/orders', { token: fourth.body.tokens.access })
    expect(orders.status).toBe(403)
    expect(orders.body).toEqual({ message: 'Access denied: requires orders:read', error: 'permission_denied', detail: 'Access denied: requires orders:read' })
  })

  it('refuses a refresh token used a moment ago without ending the session', async () => {
    const first = await login()
    const second = await refresh(first.tokens.refresh)
    expect(second.status).toBe(200)
    const again = await refresh(first.tokens.refresh)
    expect(again.status).toBe(401)
    expect(again.body).toEqual(INVALID)
    expect((await findSession(server.services.db, first.session_id))!.revoked_at).toBeNull()
    expect((await whoAmI(second.body.tokens.access)).status).toBe(200)
    expect((await refresh(second.body.tokens.refresh)).status).toBe(200)
  })

  it('revokes the whole session when a token is reused after the reuse window', async () => {
    const victim = await login()
    const other = await login() // another session of the same client
    const stolen = victim.tokens.refresh
    const rotated = await refresh(stolen)
    expect(rotated.status).toBe(200)
    expect((await whoAmI(victim.tokens.access)).status).toBe(200) // now remembered by the verifier
    await backdateUse(decodeJwt(stolen).jti!, 11) // REFRESH_REUSE_WINDOW is 10 s

    const replay = await refresh(stolen)
    expect(replay.status).toBe(401)
    expect(replay.body).toEqual(INVALID)

    const session = await findSession(server.services.db, victim.session_id)
    expect(session).toMatchObject({ revoked_at: expect.any(String), revoked_reason: 'refresh_token_reuse' })
    const rows = await listRefreshTokens(server.services.db, victim.session_id)
    expect(rows).toHaveLength(2)
    for (const row of rows) expect(row.revoked_at).not.toBeNull()

    // The legitimate holder's successor token is dead too, and so is every access token of the
    // session, at once in this process.
    const successor = await refresh(rotated.body.tokens.refresh)
    expect(successor.status).toBe(401)
    expect(successor.body).toEqual(INVALID)
    for (const token of [victim.tokens.access, rotated.body.tokens.access]) {
      const res = await whoAmI(token)
      expect(res.status).toBe(401)
      expect(res.body).toEqual(REVOKED)
    }
    // Other sessions of the client are untouched.
    expect((await whoAmI(other.tokens.access)).status).toBe(200)
    expect((await refresh(other.tokens.refresh)).status).toBe(200)
  })

  it('lets exactly one of 20 concurrent refreshes with the same token win', async () => {
    const first = await login()
    const results = await Promise.all(Array.from({ length: 20 }, () => refresh(first.tokens.refresh)))
    const winners = results.filter((r) => r.status === 200)
    const losers = results.filter((r) => r.status !== 200)
    expect(winners).toHaveLength(1)
    expect(losers).toHaveLength(19)
    for (const loser of losers) {
      expect(loser.status).toBe(401)
      expect(loser.body).toEqual(INVALID)
    }
    const rows = await listRefreshTokens(server.services.db, first.session_id)
    expect(rows).toHaveLength(2)
    // Losers inside the reuse window do not end the session: the winner carries on.
    expect((await findSession(server.services.db, first.session_id))!.revoked_at).toBeNull()
    const next = await refresh(winners[0]!.body.tokens.refresh)
    expect(next.status).toBe(200)
  })

  it('stores each refresh token as the SHA-256 of the token issued, never the token', async () => {
    const first = await login()
    const next = (await refresh(first.tokens.refresh)).body.tokens.refresh
    const rows = await listRefreshTokens(server.services.db, first.session_id)
    expect(rows.map((r) => [r.jti, r.token_sha256])).toEqual([
      [decodeJwt(first.tokens.refresh).jti, createHash('sha256').update(first.tokens.refresh).digest('hex')],
      [decodeJwt(next).jti, createHash('sha256').update(next).digest('hex')],
    ])
  })

  it('refuses a well-signed token for a real jti that is not the token issued, and does not consume the real one', async () => {
    const session = await login()
    const issued = decodeJwt(session.tokens.refresh)
    const sibling = await signRefreshToken(
      server.services.keys,
      server.config,
      { clientId: bank.client_id, tenantId: bank.tenant_id, sessionId: session.session_id },
      issued.jti!,
      issued.iat! - 5,
    )
    expect(sibling.token).not.toBe(session.tokens.refresh)
    const res = await refresh(sibling.token)
    expect(res.status).toBe(401)
    expect(res.body).toEqual(INVALID)
    expect((await refresh(session.tokens.refresh)).status).toBe(200)
  })

  describe('a refresh token issued before digests were kept', () => {
    const forgetDigest = (token: string) =>
      server.services.db.updateTable('refresh_tokens').set({ token_sha256: null }).where('jti', '=', decodeJwt(token).jti!).execute()

    it('still works once, checked by its signature; its successor is stored by digest', async () => {
      const session = await login()
      await forgetDigest(session.tokens.refresh)
      const res = await refresh(session.tokens.refresh)
      expect(res.status).toBe(200)
      const successor = (await listRefreshTokens(server.services.db, session.session_id)).find((r) => r.jti === decodeJwt(res.body.tokens.refresh).jti)
      expect(successor?.token_sha256).toBe(createHash('sha256').update(res.body.tokens.refresh).digest('hex'))
      expect((await refresh(res.body.tokens.refresh)).status).toBe(200)
      expect((await refresh(session.tokens.refresh)).status).toBe(401)
    })

    it('is refused with a tampered signature, and stays usable', async () => {
      const session = await login()
      await forgetDigest(session.tokens.refresh)
      const token = session.tokens.refresh
      const tampered = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`
      const res = await refresh(tampered)
      expect(res.status).toBe(401)
      expect(res.body).toEqual(INVALID)
      expect((await refresh(token)).status).toBe(200)
    })
  })

  it('refuses a refresh token signed with a key retired since', async () => {
    const session = await login()
    await rotateSigningKeys(server.services.db, undefined, 0)
    await server.services.keys.reload()
    const res = await refresh(session.tokens.refresh)
    expect(res.status).toBe(401)
    expect(res.body).toEqual(INVALID)
  })

  it('refuses the refresh token of a deactivated client', async () => {
    const closing = await createClient(server.services.db, { name: 'Closing Bank' })
    const session = await login(closing)
    await deactivateClient(server.services.db, closing.client_id)
    const res = await refresh(session.tokens.refresh)
    expect(res.status).toBe(401)
    expect(res.body).toEqual(INVALID)
  })

  it('refuses a refresh token whose database row has expired', async () => {
    const session = await login()
    await server.services.db
      .updateTable('refresh_tokens')
      .set({ expires_at: sql<string>`timezone('utc', now()) - interval '1 second'` })
      .where('jti', '=', decodeJwt(session.tokens.refresh).jti!)
      .execute()
    const res = await refresh(session.tokens.refresh)
    expect(res.status).toBe(401)
    expect(res.body).toEqual(INVALID)
  })

  it.each([
    ['an empty string', async () => ''],
    ['a random string', async () => 'not-a-token'],
    ['an access token', async () => (await login()).tokens.access],
    [
      'a refresh token with a tampered payload',
      async () => {
        const [h, , s] = (await login()).tokens.refresh.split('.')
        const payload = { ...decodeJwt((await login()).tokens.refresh), sub: randomUUID() }
        return `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`
      },
    ],
    [
      'a refresh token with a tampered signature',
      async () => {
        const token = (await login()).tokens.refresh
        const last = token.at(-2) === 'A' ? 'B' : 'A'
        return `${token.slice(0, -2)}${last}${token.at(-1)}`
      },
    ],
    [
      'an expired refresh token',
      async () => {
        const now = Math.floor(Date.now() / 1000) - 604_800 - 60
        return (await signRefreshToken(server.services.keys, server.config, subject(), randomUUID(), now)).token
      },
    ],
    [
      'a well-signed refresh token that was never issued',
      async () => (await signRefreshToken(server.services.keys, server.config, subject(), randomUUID())).token,
    ],
    [
      'a refresh token of another issuer',
      async () => (await signRefreshToken(server.services.keys, { ...server.config, publicBaseUrl: 'https://evil.example' }, subject(), randomUUID())).token,
    ],
    [
      'a refresh token for another audience',
      async () => (await signRefreshToken(server.services.keys, { ...server.config, tokenAudience: 'https://other.example' }, subject(), randomUUID())).token,
    ],
    ['a refresh token whose jti is not a UUID', async () => (await signRefreshToken(server.services.keys, server.config, subject(), 'jti-1')).token],
    [
      'refresh claims under the access token typ',
      async () => {
        const { claims } = await signRefreshToken(server.services.keys, server.config, subject(), randomUUID())
        const { kid, privateKey } = server.services.keys.signingKey()
        return new SignJWT({ ...claims }).setProtectedHeader({ alg: 'EdDSA', kid, typ: 'at+jwt' }).sign(privateKey)
      },
    ],
  ])('answers %s with 401 "JWT has an invalid format"', async (_case, token) => {
    const res = await refresh(await token())
    expect(res.status).toBe(401)
    expect(res.body).toEqual(INVALID)
    expect(res.headers.get('cache-control')).toBeNull()
  })

  it('answers a missing or mistyped refresh_token with 422', async () => {
    const missing = await server.request('POST', '/api/sso/v1/auth/refresh', { body: {} })
    expect(missing.status).toBe(422)
    expect(missing.body).toEqual({ detail: [{ type: 'missing', loc: ['body', 'refresh_token'], msg: 'Field required' }] })
    const number = await refresh(7)
    expect(number.status).toBe(422)
    expect(number.body).toEqual({ detail: [{ type: 'type_error.str', loc: ['body', 'refresh_token'], msg: 'str type expected', input: 7 }] })
    const notJson = await server.request('POST', '/api/sso/v1/auth/refresh', {
      rawBody: "{'refresh_token': 1}",
      headers: { 'content-type': 'application/json' },
    })
    expect(notJson.status).toBe(422)
    expect(notJson.body).toEqual({
      detail: [
        { type: 'json_invalid', loc: ['body', 1], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting property name enclosed in double quotes' } },
      ],
    })
  })
})

function subject() {
  return { clientId: bank.client_id, tenantId: bank.tenant_id, sessionId: randomUUID() }
}

describe('GraphQL refresh', () => {
  it('returns status, tokens and expiresIn, without caching', async () => {
    const first = await login()
    const res = await server.graphql(RefreshDocument, { refreshToken: first.tokens.refresh })
    expect(res.status).toBe(200)
    expect(res.errors).toBeUndefined()
    expect(res.data).toEqual({ refresh: { status: 'refreshed', tokens: { access: expect.any(String), refresh: expect.any(String) }, expiresIn: 600 } })
    expect(decodeJwt(res.data!.refresh.tokens.access).session_id).toBe(first.session_id)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('pragma')).toBe('no-cache')
  })

  it('refuses a well-signed token that is not the one issued, and takes a token issued before digests were kept', async () => {
    const session = await login()
    const issued = decodeJwt(session.tokens.refresh)
    const subject = { clientId: bank.client_id, tenantId: bank.tenant_id, sessionId: session.session_id }
    const sibling = await signRefreshToken(server.services.keys, server.config, subject, issued.jti!, issued.iat! - 5)
    const refused = await server.graphql(RefreshDocument, { refreshToken: sibling.token })
    expect(refused.status).toBe(401)
    expect(refused.data).toBeNull()
    expect(refused.errors).toEqual([
      { message: 'JWT has an invalid format', locations: expect.any(Array), path: ['refresh'], extensions: { code: 'UNAUTHENTICATED', error: 'Unauthorized' } },
    ])
    await server.services.db.updateTable('refresh_tokens').set({ token_sha256: null }).where('jti', '=', issued.jti!).execute()
    const legacy = await server.graphql(RefreshDocument, { refreshToken: session.tokens.refresh })
    expect(legacy.status).toBe(200)
    expect(legacy.errors).toBeUndefined()
    expect(legacy.data?.refresh.status).toBe('refreshed')
  })

  it("signs each access token with the client's roles and scopes as the rotation reads them, also when they changed since the last refresh", async () => {
    const other = await createClient(server.services.db, { name: 'Bank Tejarat' })
    const first = await login(other)
    const second = await server.graphql(RefreshDocument, { refreshToken: first.tokens.refresh })
    expect(claimsOf(second.data!.refresh.tokens.access)).toEqual({ roles: other.roles, scopes: other.scopes })

    await server.services.db
      .updateTable('clients')
      .set({ roles: ['client', 'admin'], scopes: ['symbols:read'] })
      .where('id', '=', other.client_id)
      .execute()
    const third = await server.graphql(RefreshDocument, { refreshToken: second.data!.refresh.tokens.refresh })
    expect(third.status).toBe(200)
    expect(third.errors).toBeUndefined()
    expect(claimsOf(third.data!.refresh.tokens.access)).toEqual({ roles: ['client', 'admin'], scopes: ['symbols:read'] })
    const orders = await server.graphql(OrdersDocument, {}, { token: third.data!.refresh.tokens.access })
    expect(orders.status).toBe(403)
    expect(orders.errors).toEqual([
      {
        message: 'Access denied: requires orders:read',
        locations: expect.any(Array),
        path: ['orders'],
        extensions: { code: 'FORBIDDEN', error: 'permission_denied' },
      },
    ])
  })

  it('answers a used token with UNAUTHENTICATED and HTTP 401', async () => {
    const first = await login()
    expect((await refresh(first.tokens.refresh)).status).toBe(200)
    const res = await server.graphql(RefreshDocument, { refreshToken: first.tokens.refresh })
    expect(res.status).toBe(401)
    expect(res.data).toBeNull()
    expect(res.errors).toEqual([
      { message: 'JWT has an invalid format', locations: expect.any(Array), path: ['refresh'], extensions: { code: 'UNAUTHENTICATED', error: 'Unauthorized' } },
    ])
    expect(res.headers.get('cache-control')).toBeNull()
  })
})
