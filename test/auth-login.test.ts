import { decodeJwt, decodeProtectedHeader } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createClient, deactivateClient } from '../src/modules/auth/clients/clients.ts'
import { timestampAt } from '../src/modules/auth/sessions/session-tokens.ts'
import { findSession, listRefreshTokens } from '../src/modules/auth/sessions/sessions.repository.ts'
import { LoginDocument, ViewerDocument } from './generated/graphql.ts'
import { startTestServer, TEST_BASE_URL, type TestServer } from './helpers/server.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const LOGIN_FAILED = { message: { en: 'Authentication failed' }, error: 'invalid_credentials', detail: 'Authentication failed' }
const DEFAULT_SCOPES = ['symbols:read', 'orders:read', 'orders:write', 'users:read', 'users:write', 'accounts:read', 'webhooks:read', 'webhooks:write']
const CLAIM_ORDER = ['iss', 'sub', 'aud', 'iat', 'exp', 'jti', 'token_type', 'session_id', 'tenant_id', 'roles', 'scopes', 'amr', 'client_id']

let server: TestServer
let bank: Awaited<ReturnType<typeof createClient>>

beforeAll(async () => {
  server = await startTestServer()
  bank = await createClient(server.services.db, { name: 'Bank Melli' })
})
afterAll(async () => {
  await server?.close()
})

const credentials = () => ({ client_id: bank.client_id, client_secret: bank.client_secret })

describe('POST /api/sso/v1/auth/login', () => {
  it('answers 200 with the access token claims at top level, the token set and expires_in', async () => {
    const before = Math.floor(Date.now() / 1000)
    const res = await server.request('POST', '/api/sso/v1/auth/login', { body: credentials() })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual([...CLAIM_ORDER, 'tokens', 'expires_in'])
    const { tokens, expires_in, ...claims } = res.body
    expect(claims).toEqual({
      iss: TEST_BASE_URL,
      sub: bank.client_id,
      aud: TEST_BASE_URL,
      iat: expect.any(Number),
      exp: claims.iat + 600,
      jti: expect.stringMatching(UUID),
      token_type: 'access',
      session_id: expect.stringMatching(UUID),
      tenant_id: bank.tenant_id,
      roles: ['client'],
      scopes: DEFAULT_SCOPES,
      amr: ['client_secret'],
      client_id: bank.client_id,
    })
    expect(claims.iat).toBeGreaterThanOrEqual(before)
    expect(claims.iat).toBeLessThanOrEqual(before + 5)
    expect(expires_in).toBe(600)
    expect(Object.keys(tokens)).toEqual(['access', 'refresh'])
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('pragma')).toBe('no-cache')

    // The body's claims are exactly the access token's payload.
    expect(decodeJwt(tokens.access)).toEqual(claims)
    expect(decodeProtectedHeader(tokens.access)).toEqual({ alg: 'EdDSA', kid: server.services.keys.signingKey().kid, typ: 'at+jwt' })
  })

  it('issues a refresh token that is a JWT whose jti is a row of a new session lasting as long as it', async () => {
    const res = await server.request('POST', '/api/sso/v1/auth/login', { body: credentials() })
    const refresh = decodeJwt(res.body.tokens.refresh)
    expect(decodeProtectedHeader(res.body.tokens.refresh)).toEqual({ alg: 'EdDSA', kid: server.services.keys.signingKey().kid, typ: 'rt+jwt' })
    expect(refresh).toEqual({
      iss: TEST_BASE_URL,
      sub: bank.client_id,
      aud: TEST_BASE_URL,
      iat: res.body.iat,
      exp: res.body.iat + 604_800,
      jti: expect.stringMatching(UUID),
      token_type: 'refresh',
      session_id: res.body.session_id,
      tenant_id: bank.tenant_id,
      session_exp: res.body.iat + 30 * 86_400,
    })
    expect(refresh.jti).not.toBe(res.body.jti)
    const session = await findSession(server.services.db, res.body.session_id)
    expect(session).toMatchObject({ client_id: bank.client_id, tenant_id: bank.tenant_id, revoked_at: null, revoked_reason: null })
    expect(session!.expires_at).toBe(timestampAt(refresh.exp!))
    const rows = await listRefreshTokens(server.services.db, res.body.session_id)
    expect(rows).toEqual([
      expect.objectContaining({ jti: refresh.jti, client_id: bank.client_id, expires_at: timestampAt(refresh.exp!), used_at: null, revoked_at: null }),
    ])
  })

  it('opens a new session on every login, leaving earlier ones valid', async () => {
    const first = await server.request('POST', '/api/sso/v1/auth/login', { body: credentials() })
    const second = await server.request('POST', '/api/sso/v1/auth/login', { body: credentials() })
    expect(second.body.session_id).not.toBe(first.body.session_id)
    for (const login of [first, second]) {
      const me = await server.request('GET', `/api/sso/v1/users/${bank.client_id}`, { token: login.body.tokens.access })
      expect(me.status).toBe(200)
    }
  })

  it('accepts the /api/auth/v1/login alias', async () => {
    const res = await server.request('POST', '/api/auth/v1/login', { body: credentials() })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ sub: bank.client_id, token_type: 'access', expires_in: 600 })
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('pragma')).toBe('no-cache')
    const bad = await server.request('POST', '/api/auth/v1/login', { body: { ...credentials(), client_secret: 'nope' } })
    expect(bad.status).toBe(401)
    expect(bad.body).toEqual(LOGIN_FAILED)
  })

  it.each([
    ['a wrong secret', () => ({ ...credentials(), client_secret: `${bank.client_secret.slice(0, -1)}${bank.client_secret.endsWith('A') ? 'B' : 'A'}` })],
    ['an empty secret', () => ({ ...credentials(), client_secret: '' })],
    ['an unknown client', () => ({ client_id: '6f1c1b76-8f0e-4b8e-9a55-3f1d1c1e2a10', client_secret: bank.client_secret })],
    ['a client id that is not a UUID', () => ({ client_id: "x' or 1=1 --", client_secret: bank.client_secret })],
    ['an empty client id', () => ({ client_id: '', client_secret: bank.client_secret })],
  ])('answers %s with 401 invalid_credentials', async (_case, body) => {
    const res = await server.request('POST', '/api/sso/v1/auth/login', { body: body() })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(LOGIN_FAILED)
    expect(res.headers.get('cache-control')).toBeNull()
  })

  it('refuses an inactive client even with the right secret', async () => {
    const inactive = await createClient(server.services.db, { name: 'Closed Bank' })
    await deactivateClient(server.services.db, inactive.client_id)
    const res = await server.request('POST', '/api/sso/v1/auth/login', {
      body: { client_id: inactive.client_id, client_secret: inactive.client_secret },
    })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(LOGIN_FAILED)
  })

  it('answers missing fields with 422 missing at their locations', async () => {
    const none = await server.request('POST', '/api/sso/v1/auth/login', { body: {} })
    expect(none.status).toBe(422)
    expect(none.body).toEqual({
      detail: [
        { type: 'missing', loc: ['body', 'client_id'], msg: 'Field required' },
        { type: 'missing', loc: ['body', 'client_secret'], msg: 'Field required' },
      ],
    })
    const noSecret = await server.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.client_id } })
    expect(noSecret.status).toBe(422)
    expect(noSecret.body).toEqual({ detail: [{ type: 'missing', loc: ['body', 'client_secret'], msg: 'Field required' }] })
  })

  it('answers an empty body with 422 missing body, as FastAPI does', async () => {
    const res = await server.request('POST', '/api/sso/v1/auth/login')
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required' }] })
  })

  it('answers a field of the wrong type with 422', async () => {
    const res = await server.request('POST', '/api/sso/v1/auth/login', { body: { client_id: 42, client_secret: bank.client_secret } })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({ detail: [{ type: 'type_error.str', loc: ['body', 'client_id'], msg: 'str type expected', input: 42 }] })
  })

  it('answers a body that is not JSON with 422 json_invalid at the position of the fault', async () => {
    const res = await server.request('POST', '/api/sso/v1/auth/login', {
      rawBody: '{"client_id": ',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(422)
    expect(res.body).toEqual({
      detail: [{ type: 'json_invalid', loc: ['body', 14], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }],
    })
  })
})

describe('GraphQL login', () => {
  it('returns the claims in camelCase, the tokens and expiresIn, without caching', async () => {
    const res = await server.graphql(LoginDocument, { clientId: bank.client_id, clientSecret: bank.client_secret })
    expect(res.status).toBe(200)
    expect(res.errors).toBeUndefined()
    const { claims, tokens, expiresIn } = res.data!.login
    const access = decodeJwt(tokens.access)
    expect(claims).toEqual({
      iss: access.iss,
      sub: bank.client_id,
      aud: TEST_BASE_URL,
      iat: access.iat,
      exp: access.iat! + 600,
      jti: access.jti,
      tokenType: 'access',
      sessionId: access.session_id,
      tenantId: bank.tenant_id,
      roles: ['client'],
      scopes: DEFAULT_SCOPES,
      amr: ['client_secret'],
      clientId: bank.client_id,
    })
    expect(decodeJwt(tokens.refresh)).toMatchObject({ token_type: 'refresh', session_id: access.session_id })
    expect(expiresIn).toBe(600)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('pragma')).toBe('no-cache')

    // A response without tokens is not marked.
    const viewer = await server.graphql(ViewerDocument, {}, { token: tokens.access })
    expect(viewer.status).toBe(200)
    expect(viewer.headers.get('cache-control')).toBeNull()
  })

  it.each([
    ['a wrong secret', () => ({ clientId: bank.client_id, clientSecret: 'wrong' })],
    ['an unknown client', () => ({ clientId: '6f1c1b76-8f0e-4b8e-9a55-3f1d1c1e2a10', clientSecret: bank.client_secret })],
    ['a client id that is not a UUID', () => ({ clientId: 'bank-melli', clientSecret: bank.client_secret })],
  ])('answers %s with UNAUTHENTICATED invalid_credentials and HTTP 401', async (_case, variables) => {
    const res = await server.graphql(LoginDocument, variables())
    expect(res.status).toBe(401)
    expect(res.data).toBeNull()
    expect(res.errors).toEqual([
      {
        message: 'Authentication failed',
        locations: expect.any(Array),
        path: ['login'],
        extensions: { code: 'UNAUTHENTICATED', error: 'invalid_credentials' },
      },
    ])
    expect(res.headers.get('cache-control')).toBeNull()
  })
})
