import { randomUUID } from 'node:crypto'

import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { DEFAULT_RELOAD_INTERVALS } from '../src/app/services.ts'
import { rotateSigningKeys } from '../src/modules/auth/keys/signing-keys.ts'
import { signAccessToken, signRefreshToken } from '../src/modules/auth/tokens/tokens.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { eventually } from './helpers/eventually.ts'
import { SHORT_RELOAD_MS, startTestServer, TEST_BASE_URL, type TestServer } from './helpers/server.ts'

let server: TestServer
let bank: TestClient

beforeAll(async () => {
  server = await startTestServer({}, undefined, { intervals: { keys: SHORT_RELOAD_MS } })
  bank = await createTestClient(server)
})
afterAll(async () => {
  await server?.close()
})

async function fetchJwks(): Promise<JSONWebKeySet> {
  const res = await server.request('GET', '/.well-known/jwks.json')
  expect(res.status).toBe(200)
  return res.body
}

async function login(): Promise<string> {
  const res = await server.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.clientId, client_secret: bank.clientSecret } })
  expect(res.status).toBe(200)
  return res.body.tokens.access
}

/** What a bank or a gateway would do: verify with nothing but the published JWKS. */
function independentlyVerify(jwks: JSONWebKeySet, token: string) {
  return jwtVerify(token, createLocalJWKSet(jwks), { algorithms: ['EdDSA'], issuer: TEST_BASE_URL, audience: TEST_BASE_URL, typ: 'at+jwt' })
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid

describe('GET /.well-known/jwks.json', () => {
  it('publishes the public signing key, without auth and without private parts', async () => {
    const res = await server.request('GET', '/.well-known/jwks.json', { headers: { authorization: 'garbage' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('public, max-age=10')
    const { kid } = server.services.keys.signingKey()
    expect(res.body).toEqual({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), kid, alg: 'EdDSA', use: 'sig' }] })
  })

  it('lets an independent verifier accept fresh access tokens', async () => {
    const token = await login()
    const { payload, protectedHeader } = await independentlyVerify(await fetchJwks(), token)
    expect(payload).toMatchObject({ sub: bank.clientId, token_type: 'access', client_id: bank.clientId })
    expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: server.services.keys.signingKey().kid, typ: 'at+jwt' })
    // ... and refuse a token it did not sign.
    const [header, payload_, signature] = token.split('.') as [string, string, string]
    const forged = `${header}.${payload_}.${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`
    await expect(independentlyVerify(await fetchJwks(), forged)).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' })
  })
})

describe('token signing', () => {
  it('makes exactly the compact JWS jose makes of the same header and claims', async () => {
    const subject = { clientId: bank.clientId, tenantId: bank.tenantId, sessionId: randomUUID(), roles: ['client', 'admin'], scopes: ['orders:*', 'é:read'] }
    const { kid, privateKey } = server.services.keys.signingKey()
    const access = await signAccessToken(server.services.keys, server.config, subject)
    const refresh = await signRefreshToken(server.services.keys, server.config, subject, randomUUID())
    for (const [signed, typ] of [
      [access, 'at+jwt'],
      [refresh, 'rt+jwt'],
    ] as const) {
      const byJose = await new SignJWT({ ...signed.claims }).setProtectedHeader({ alg: 'EdDSA', kid, typ }).sign(privateKey)
      expect(signed.token).toBe(byJose)
      const { payload, protectedHeader } = await jwtVerify(signed.token, createLocalJWKSet(await fetchJwks()), { algorithms: ['EdDSA'], typ })
      expect(protectedHeader).toEqual({ alg: 'EdDSA', kid, typ })
      expect(payload).toEqual(signed.claims)
    }
  })
})

describe('key rotation', () => {
  it('reloads often enough by default that a rotation is used within the 5 s of docs/operations.md', () => {
    expect(DEFAULT_RELOAD_INTERVALS.keys).toBeLessThanOrEqual(5000)
  })

  it('signs with a key rotated elsewhere from its next reload, and keeps accepting tokens of the old key', async () => {
    const oldKid = server.services.keys.signingKey().kid
    const oldToken = await login()
    expect(kidOf(oldToken)).toBe(oldKid)

    // Rotated behind the server's back, as `keys rotate` on the CLI does.
    const { kid: newKid, retired } = await rotateSigningKeys(server.services.db, undefined, 604_800 + 600 + 30)
    expect(retired).toBe(0)
    const newToken = await eventually(
      async () => {
        const token = await login()
        return kidOf(token) === newKid ? token : undefined
      },
      10_000,
      SHORT_RELOAD_MS / 2,
    )

    const jwks = await fetchJwks()
    expect(jwks.keys.map((k) => k.kid)).toEqual([newKid, oldKid])
    for (const token of [oldToken, newToken]) {
      await expect(independentlyVerify(jwks, token)).resolves.toBeDefined()
      expect((await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token })).status).toBe(200)
    }
  })

  it('stops publishing and accepting retired keys', async () => {
    const before = await login()
    expect((await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token: before })).status).toBe(200) // remembered
    // No token may outlive 0 seconds: every key but the new one is retired.
    const { kid } = await rotateSigningKeys(server.services.db, undefined, 0)
    await server.services.keys.reload()
    expect((await fetchJwks()).keys.map((k) => k.kid)).toEqual([kid])
    const res = await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token: before })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: 'JWT signature is invalid', error: 'Unauthorized', detail: 'JWT signature is invalid' })
    const after = await login()
    expect(kidOf(after)).toBe(kid)
    expect((await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token: after })).status).toBe(200)
  })
})
