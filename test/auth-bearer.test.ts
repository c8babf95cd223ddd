import { randomUUID } from 'node:crypto'

import { decodeJwt, generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { TokenVerifier } from '../src/modules/auth/tokens/token-verifier.ts'
import { type AccessTokenClaims, signAccessToken, signRefreshToken } from '../src/modules/auth/tokens/tokens.ts'
import { ViewerDocument } from './generated/graphql.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { withoutBackgroundPolls } from './helpers/background.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const body = (message: string) => ({ message, error: 'Unauthorized', detail: message })
const NO_TOKEN = 'No token provided'
const INVALID = 'JWT has an invalid format'
const EXPIRED = 'JWT has expired'
const BAD_SIGNATURE = 'JWT signature is invalid'

let server: TestServer
let bank: TestClient
let other: TestClient

beforeAll(async () => {
  server = await startTestServer()
  bank = await createTestClient(server)
  other = await createTestClient(server)
})
afterAll(async () => {
  await server?.close()
})

const nowSeconds = () => Math.floor(Date.now() / 1000)
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const subject = () => ({ clientId: bank.clientId, tenantId: bank.tenantId, sessionId: randomUUID(), roles: bank.roles, scopes: bank.scopes })
const claims = () => decodeJwt(bank.token) as unknown as AccessTokenClaims

async function signWith(header: Record<string, unknown>, payload: Record<string, unknown>) {
  const { kid, privateKey } = server.services.keys.signingKey()
  return new SignJWT(payload).setProtectedHeader({ alg: 'EdDSA', kid, ...header } as { alg: string }).sign(privateKey)
}

/** Flips one character in the middle of a token part (0 header, 1 payload, 2 signature). */
function flip(token: string, part: number): string {
  const parts = token.split('.')
  const p = parts[part]!
  const i = Math.floor(p.length / 2)
  parts[part] = `${p.slice(0, i)}${p[i] === 'A' ? 'B' : 'A'}${p.slice(i + 1)}`
  return parts.join('.')
}

type Case = [name: string, authorization: () => Promise<string | undefined> | string | undefined, message: string]

const cases: Case[] = [
  ['no Authorization header', () => undefined, NO_TOKEN],
  ['an empty Authorization header', () => '', NO_TOKEN],
  ['the token without the Bearer word', () => bank.token, INVALID],
  ['another scheme', () => `Token ${bank.token}`, INVALID],
  ['lower-case bearer', () => `bearer ${bank.token}`, INVALID],
  ['two spaces after Bearer', () => `Bearer  ${bank.token}`, INVALID],
  ['Bearer with nothing after it', () => 'Bearer', INVALID],
  ['two parts', () => `Bearer ${bank.token.split('.').slice(0, 2).join('.')}`, INVALID],
  ['four parts', () => `Bearer ${bank.token}.abc`, INVALID],
  ['characters outside base64url', () => `Bearer ${bank.token.replace('.', '+.')}`, INVALID],
  ['three parts of garbage', () => 'Bearer abc.def.ghi', INVALID],
  ['alg none (unsecured)', () => `Bearer ${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(claims())}.`, INVALID],
  [
    'alg none with a signature',
    () => `Bearer ${b64({ alg: 'none', typ: 'at+jwt', kid: server.services.keys.signingKey().kid })}.${b64(claims())}.AAAA`,
    INVALID,
  ],
  [
    'HS256 signed with the public key bytes',
    async () => {
      const { kid } = server.services.keys.signingKey()
      const jwk = server.services.keys.jwks().keys.find((k) => k.kid === kid)!
      const token = await new SignJWT({ ...claims() }).setProtectedHeader({ alg: 'HS256', kid, typ: 'at+jwt' }).sign(Buffer.from(jwk.x!, 'base64url'))
      return `Bearer ${token}`
    },
    INVALID,
  ],
  ['a refresh token', async () => `Bearer ${(await signRefreshToken(server.services.keys, server.config, subject(), randomUUID())).token}`, INVALID],
  ['a token without typ', async () => `Bearer ${await signWith({ typ: undefined }, { ...claims() })}`, INVALID],
  ['a token of another issuer', async () => `Bearer ${await signWith({ typ: 'at+jwt' }, { ...claims(), iss: 'https://evil.example' })}`, INVALID],
  ['a token for another audience', async () => `Bearer ${await signWith({ typ: 'at+jwt' }, { ...claims(), aud: 'https://other.example' })}`, INVALID],
  ['access typ with token_type refresh', async () => `Bearer ${await signWith({ typ: 'at+jwt' }, { ...claims(), token_type: 'refresh' })}`, INVALID],
  ['client_id differing from sub', async () => `Bearer ${await signWith({ typ: 'at+jwt' }, { ...claims(), client_id: other.clientId })}`, INVALID],
  ['scopes that are not a list', async () => `Bearer ${await signWith({ typ: 'at+jwt' }, { ...claims(), scopes: '*:*' })}`, INVALID],
  ['a token without kid', async () => `Bearer ${await signWith({ typ: 'at+jwt', kid: undefined }, { ...claims() })}`, INVALID],
  ['an iat in the future', async () => `Bearer ${(await signAccessToken(server.services.keys, server.config, subject(), nowSeconds() + 120)).token}`, INVALID],
  ['an expired token', async () => `Bearer ${(await signAccessToken(server.services.keys, server.config, subject(), nowSeconds() - 600 - 31)).token}`, EXPIRED],
  ['a tampered payload', () => `Bearer ${flip(bank.token, 1)}`, BAD_SIGNATURE],
  [
    'a payload granting more scopes under the original signature',
    () => {
      const [h, , s] = bank.token.split('.')
      return `Bearer ${h}.${b64({ ...claims(), roles: ['admin'], scopes: ['*:*'] })}.${s}`
    },
    BAD_SIGNATURE,
  ],
  ['a tampered signature', () => `Bearer ${flip(bank.token, 2)}`, BAD_SIGNATURE],
  [
    'an unknown kid',
    async () => {
      const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
      return `Bearer ${await new SignJWT({ ...claims() }).setProtectedHeader({ alg: 'EdDSA', kid: 'unknown-kid', typ: 'at+jwt' }).sign(privateKey)}`
    },
    BAD_SIGNATURE,
  ],
  [
    'a foreign key claiming our kid',
    async () => {
      const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
      const { kid } = server.services.keys.signingKey()
      return `Bearer ${await new SignJWT({ ...claims() }).setProtectedHeader({ alg: 'EdDSA', kid, typ: 'at+jwt' }).sign(privateKey)}`
    },
    BAD_SIGNATURE,
  ],
]

function headers(authorization: string | undefined): Record<string, string> {
  return authorization === undefined ? {} : { authorization }
}

describe('Bearer authentication (the reference 401 bodies)', () => {
  it.each(cases)('REST answers %s with 401 and the reference body', async (_name, authorization, message) => {
    const res = await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { headers: headers(await authorization()) })
    expect(res.status).toBe(401)
    expect(res.body).toEqual(body(message))
  })

  it.each(cases)('GraphQL answers %s with UNAUTHENTICATED and HTTP 401', async (_name, authorization, message) => {
    const res = await server.graphql(ViewerDocument, {}, { headers: headers(await authorization()) })
    expect(res.status).toBe(401)
    expect(res.data).toBeNull()
    expect(res.errors).toEqual([{ message, locations: expect.any(Array), path: ['viewer'], extensions: { code: 'UNAUTHENTICATED', error: 'Unauthorized' } }])
  })

  it('accepts a valid token, and one expired by less than CLOCK_SKEW', async () => {
    expect((await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token: bank.token })).status).toBe(200)
    const lately = await signAccessToken(server.services.keys, server.config, subject(), nowSeconds() - 600 - 20)
    expect((await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token: lately.token })).status).toBe(200)
  })

  it('answers 401 for a query whose only error is authentication, even beside other fields', async () => {
    const res = await server.graphql('{ health { status } viewer { uid } }')
    expect(res.status).toBe(401)
    expect(res.errors?.map((e) => e.extensions.code)).toEqual(['UNAUTHENTICATED'])
  })
})

describe('verification cost', () => {
  const withoutBackgroundReloads = (fn: () => Promise<void>) => withoutBackgroundPolls(server.services, fn)

  it('reads no database row to verify a token', async () => {
    await withoutBackgroundReloads(async () => {
      const fresh = await signAccessToken(server.services.keys, server.config, subject())
      const start = server.services.database.queryCount()
      // Refused after authentication, before any data: only verification runs.
      for (let i = 0; i < 25; i++) {
        const token = i === 0 ? fresh.token : bank.token
        const res = await server.request('GET', `/api/sso/v1/users/${other.clientId}`, { token })
        expect(res.status).toBe(403)
      }
      expect(server.services.database.queryCount() - start).toBe(0)
      // Answered: one query per request, the client record itself.
      for (let i = 0; i < 25; i++) {
        expect((await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token: bank.token })).status).toBe(200)
        expect((await server.graphql(ViewerDocument, {}, { token: bank.token })).status).toBe(200)
      }
      expect(server.services.database.queryCount() - start).toBe(50)
    })
  })

  it('looks an unknown kid up in the database at most once a second', async () => {
    await withoutBackgroundReloads(async () => {
      const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
      await new Promise((r) => setTimeout(r, 1100))
      const start = server.services.database.queryCount()
      const started = Date.now()
      for (let i = 0; i < 20; i++) {
        const token = await new SignJWT({ ...claims() }).setProtectedHeader({ alg: 'EdDSA', kid: `forged-${i}`, typ: 'at+jwt' }).sign(privateKey)
        const res = await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token })
        expect(res.body).toEqual(body(BAD_SIGNATURE))
      }
      const lookups = server.services.database.queryCount() - start
      expect(lookups).toBeGreaterThanOrEqual(1)
      expect(lookups).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 1000))
    })
  })

  it('never answers a tampered token from the verified-token cache', async () => {
    const token = (await signAccessToken(server.services.keys, server.config, subject())).token
    expect((await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token })).status).toBe(200)
    for (const part of [0, 1, 2]) {
      const res = await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token: flip(token, part) })
      expect(res.status).toBe(401)
      expect(res.body.error).toBe('Unauthorized')
    }
    const extended = `${token.split('.').slice(0, 2).join('.')}.${token.split('.')[2]}A`
    expect((await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token: extended })).body).toEqual(body(BAD_SIGNATURE))
    expect((await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token })).status).toBe(200)
  })

  it('checks expiry on every use of a remembered token', async () => {
    const { keys, revocations, config } = server.services
    // The verifier's clock is the test's: the token expires when the test says, not after a wait.
    let now = nowSeconds()
    const verifier = new TokenVerifier(keys, { ...config, clockSkew: 0 }, revocations, () => now)
    const { token } = await signAccessToken(keys, config, subject(), now)
    const exp = now + config.accessTokenTtl
    now = exp - 1
    expect((await verifier.verifyAccessToken(token)).exp).toBe(exp)
    // Remembered now: a second use within its life is still answered.
    expect((await verifier.verifyAccessToken(token)).exp).toBe(exp)
    now = exp
    await expect(verifier.verifyAccessToken(token)).rejects.toMatchObject({ kind: 'unauthenticated', message: EXPIRED })
  })
})
