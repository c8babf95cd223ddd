import { createHash, generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createClient } from '../src/modules/auth/clients/clients.ts'
import { startTestServer, TEST_BASE_URL, type TestServer } from './helpers/server.ts'

/**
 * What a proof is checked for beyond test/auth-dpop.test.ts (docs/dpop.md, "What a proof must be"):
 * every algorithm taken, the JWT rules a proof also follows (`crit`, `exp`, `nbf`, a JSON object),
 * signatures of the wrong length, and the order of the checks. Proofs are signed by hand with
 * node:crypto, so any header, payload or signature bytes can be sent.
 */

const LOGIN = '/api/sso/v1/auth/login'
const ALGS = 'ES256 EdDSA RS256 PS256'

type Alg = 'ES256' | 'EdDSA' | 'RS256' | 'PS256'

interface Key {
  alg: Alg
  privateKey: KeyObject
  jwk: Record<string, unknown>
}

function newKey(alg: Alg, modulusLength = 2048): Key {
  const { publicKey, privateKey } =
    alg === 'ES256'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : alg === 'EdDSA'
        ? generateKeyPairSync('ed25519')
        : generateKeyPairSync('rsa', { modulusLength })
  return { alg, privateKey, jwk: publicKey.export({ format: 'jwk' }) as Record<string, unknown> }
}

const encode = (value: unknown) =>
  (Buffer.isBuffer(value) ? value : Buffer.from(typeof value === 'string' ? value : JSON.stringify(value))).toString('base64url')

/** The JWS signature of `input` by `key` (RFC 7518 §3.3–3.5, RFC 8037 §3.1). */
function signature(key: Key, input: string): Buffer {
  const data = Buffer.from(input)
  switch (key.alg) {
    case 'ES256':
      return sign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
    case 'EdDSA':
      return sign(null, data, key.privateKey)
    case 'RS256':
      return sign('sha256', data, key.privateKey)
    case 'PS256':
      return sign('sha256', data, { key: key.privateKey, padding: 6 /* RSA_PKCS1_PSS_PADDING */, saltLength: 32 })
  }
}

const now = () => Math.floor(Date.now() / 1000)

/** A login proof by `key`; `claims` and `header` override, `payload` replaces the claims' JSON text (or bytes) outright. */
function proof(key: Key, options: { claims?: Record<string, unknown>; header?: Record<string, unknown>; payload?: string | Buffer } = {}): string {
  const header = { typ: 'dpop+jwt', alg: key.alg, jwk: key.jwk, ...options.header }
  const claims = options.payload ?? { jti: randomUUID(), htm: 'POST', htu: `${TEST_BASE_URL}${LOGIN}`, iat: now(), ...options.claims }
  const input = `${encode(header)}.${encode(claims)}`
  return `${input}.${signature(key, input).toString('base64url')}`
}

const refused = (message: string) => ({
  status: 401,
  body: { message, error: 'invalid_dpop_proof', detail: message },
  challenge: `DPoP error="invalid_dpop_proof", error_description="${message}", algs="${ALGS}"`,
})

describe('DPoP proofs: algorithms, JWT rules and signatures', () => {
  let server: TestServer
  let client: { client_id: string; client_secret: string }

  beforeAll(async () => {
    server = await startTestServer()
    client = await createClient(server.services.db, { name: 'DPoP Proofs Bank', dpop: 'required' })
  })
  afterAll(async () => {
    await server?.close()
  })

  const login = (dpop: string) =>
    server.request('POST', LOGIN, { body: { client_id: client.client_id, client_secret: client.client_secret }, headers: { dpop } })
  const outcome = async (dpop: string) => {
    const res = await login(dpop)
    return res.status === 200 ? { status: 200 } : { status: res.status, body: res.body, challenge: res.headers.get('www-authenticate') }
  }

  it.each(['ES256', 'EdDSA', 'RS256', 'PS256'] as const)('accepts an %s proof at login and on the bound token’s calls', async (alg) => {
    const key = newKey(alg)
    const res = await login(proof(key))
    expect(res.status).toBe(200)
    expect(res.body.token_type).toBe('DPoP')
    const token: string = res.body.tokens.access
    const path = `/api/sso/v1/users/${client.client_id}`
    const ath = createHash('sha256').update(token).digest('base64url')
    const call = proof(key, { claims: { htm: 'GET', htu: `${TEST_BASE_URL}${path}`, ath } })
    const called = await server.request('GET', path, { headers: { authorization: `DPoP ${token}`, dpop: call } })
    expect(called.status).toBe(200)
    expect(called.body.uid).toBe(client.client_id)
  })

  it('refuses an ES256 signature of the wrong length or tampered, whatever its encoding', async () => {
    const key = newKey('ES256')
    const good = proof(key)
    const input = good.slice(0, good.lastIndexOf('.'))
    const sig = good.slice(good.lastIndexOf('.') + 1)
    const bytes = Buffer.from(sig, 'base64url')
    const flipped = Buffer.from(bytes)
    flipped[40]! ^= 1
    // 85 characters decode to no whole byte sequence; 84 to 63 bytes; then none, 66 bytes, and 64 altered.
    const bad = [sig.slice(0, -1), sig.slice(0, -2), '', Buffer.concat([bytes, Buffer.alloc(2)]).toString('base64url'), flipped.toString('base64url')]
    for (const wrong of bad) {
      expect(await outcome(`${input}.${wrong}`)).toEqual(refused('DPoP proof signature is invalid'))
    }
    // An ES256 header over an RS256 signature: the right alg's check, on bytes of another length.
    const rsa = newKey('RS256')
    expect(await outcome(`${input}.${signature(rsa, input).toString('base64url')}`)).toEqual(refused('DPoP proof signature is invalid'))
    expect((await login(good)).status).toBe(200)
  })

  it('refuses a proof marking any header critical, even one jose understands (b64)', async () => {
    const key = newKey('ES256')
    expect(await outcome(proof(key, { header: { crit: ['b64'], b64: true } }))).toEqual(refused('DPoP proof is invalid'))
    expect(await outcome(proof(key, { header: { crit: ['exp'], exp: now() + 60 } }))).toEqual(refused('DPoP proof is invalid'))
  })

  it('honours exp and nbf when present, within the clock skew, and needs a JSON object', async () => {
    const key = newKey('ES256')
    const skew = server.config.clockSkew
    expect(await outcome(proof(key, { claims: { exp: now() - skew - 5 } }))).toEqual(refused('DPoP proof is invalid'))
    expect(await outcome(proof(key, { claims: { exp: String(now() + 60) } }))).toEqual(refused('DPoP proof is invalid'))
    expect(await outcome(proof(key, { claims: { nbf: now() + skew + 60 } }))).toEqual(refused('DPoP proof is invalid'))
    expect(await outcome(proof(key, { claims: { nbf: 'now' } }))).toEqual(refused('DPoP proof is invalid'))
    // Inside the skew both ways, as jose's clockTolerance took them.
    expect(await outcome(proof(key, { claims: { exp: now() - 1, nbf: now() + 1 } }))).toEqual({ status: 200 })
    expect(await outcome(proof(key, { payload: JSON.stringify([{ jti: randomUUID() }]) }))).toEqual(refused('DPoP proof is invalid'))
    expect(await outcome(proof(key, { payload: 'not json' }))).toEqual(refused('DPoP proof is invalid'))
    const invalidUtf8 = proof(key, { payload: Buffer.from([0x7b, 0xff, 0x7d]) })
    expect(await outcome(invalidUtf8)).toEqual(refused('DPoP proof is invalid'))
  })

  it('refuses an RSA key under 2048 bits and a jwk whose key_ops leave out verify, as jose did', async () => {
    expect(await outcome(proof(newKey('RS256', 1024)))).toEqual(refused('DPoP proof is invalid'))
    const key = newKey('ES256')
    expect(await outcome(proof(key, { header: { jwk: { ...key.jwk, key_ops: [] } } }))).toEqual(refused('DPoP proof is invalid'))
    expect(await outcome(proof(key, { header: { jwk: { ...key.jwk, key_ops: ['verify'] } } }))).toEqual({ status: 200 })
  })

  it('checks the claims before the signature: a proof wrong in both is refused for its claims', async () => {
    const key = newKey('ES256')
    const forged = (claims: Record<string, unknown>) => {
      const good = proof(key, { claims })
      return `${good.slice(0, good.lastIndexOf('.'))}.${encode('not a signature')}`
    }
    expect(await outcome(forged({ htm: 'GET' }))).toEqual(refused('DPoP proof htm does not match the request method'))
    expect(await outcome(forged({ iat: now() - 600 }))).toEqual(refused('DPoP proof iat is not within the accepted window'))
    expect(await outcome(forged({}))).toEqual(refused('DPoP proof signature is invalid'))
  })
})
