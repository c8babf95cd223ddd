import { createHash, createHmac, randomUUID } from 'node:crypto'

import { Redis } from 'ioredis'
import { calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createClient } from '../src/modules/auth/clients/clients.ts'
import { setClientDpop } from '../src/modules/auth/dpop/client-dpop.ts'
import { createTestClient } from './helpers/auth.ts'
import { type OpenCli, openCli } from './helpers/cli.ts'
import { createTestDatabase, onPostgres, type TestDatabase } from './helpers/database.ts'
import { openSse } from './helpers/event-stream.ts'
import { eventually } from './helpers/eventually.ts'
import { openGraphQLSocket } from './helpers/graphql-socket.ts'
import { type ServerProcess, startServerProcess } from './helpers/process.ts'
import { SHORT_RELOAD_MS, startTestServer, TEST_BASE_URL, type TestServer } from './helpers/server.ts'

const LOGIN = '/api/sso/v1/auth/login'
const REFRESH = '/api/sso/v1/auth/refresh'
const ALGS = 'ES256 EdDSA RS256 PS256'

interface Key {
  alg: string
  privateKey: CryptoKey | Uint8Array
  jwk: JWK
  jkt: string
}

async function newKey(alg: 'ES256' | 'EdDSA' | 'RS256' = 'ES256'): Promise<Key> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true })
  const jwk = await exportJWK(publicKey)
  return { alg, privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) }
}

const now = () => Math.floor(Date.now() / 1000)
const ath = (token: string) => createHash('sha256').update(token).digest('base64url')

/** A proof for `htm` `path` (under the test server's public address) by `key`; `claims` and `header` override. */
function proof(key: Key, htm: string, path: string, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) {
  return new SignJWT({ jti: randomUUID(), htm, htu: `${TEST_BASE_URL}${path}`, iat: now(), ...claims })
    .setProtectedHeader({ alg: key.alg, typ: 'dpop+jwt', jwk: key.jwk, ...header })
    .sign(key.privateKey)
}

const refused = (message: string) => ({ message, error: 'invalid_dpop_proof', detail: message })
const challenge = (message: string) => `DPoP error="invalid_dpop_proof", error_description="${message}", algs="${ALGS}"`

describe('DPoP sender-constrained tokens', () => {
  let server: TestServer
  let key: Key
  let client: { client_id: string; client_secret: string }

  beforeAll(async () => {
    server = await startTestServer({}, undefined, { intervals: { revocations: SHORT_RELOAD_MS } })
    key = await newKey()
    client = await createClient(server.services.db, { name: 'DPoP Bank', dpop: 'required' })
  })
  afterAll(async () => {
    await server?.close()
  })

  const credentials = () => ({ client_id: client.client_id, client_secret: client.client_secret })
  const login = async (withKey = key) => server.request('POST', LOGIN, { body: credentials(), headers: { dpop: await proof(withKey, 'POST', LOGIN) } })
  const identity = (id = client.client_id) => `/api/sso/v1/users/${id}`
  const call = async (token: string, options: { scheme?: string; dpop?: string | null; path?: string } = {}) => {
    const path = options.path ?? identity()
    const dpop = options.dpop === undefined ? await proof(key, 'GET', path, { ath: ath(token) }) : options.dpop
    return server.request('GET', path, { headers: { authorization: `${options.scheme ?? 'DPoP'} ${token}`, ...(dpop === null ? {} : { dpop }) } })
  }
  const expectRefused = (response: { status: number; body: unknown; headers: Headers }, message: string) => {
    expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: refused(message) })
    expect(response.headers.get('www-authenticate')).toBe(challenge(message))
  }

  it('logs in with a proof: the token is bound to the key and typed DPoP', async () => {
    const res = await login()
    expect(res.status).toBe(200)
    expect(res.body.token_type).toBe('DPoP')
    expect(res.body.cnf).toEqual({ jkt: key.jkt })
    expect(decodeJwt(res.body.tokens.access).cnf).toEqual({ jkt: key.jkt })
    expect(decodeJwt(res.body.tokens.access).token_type).toBe('access')
    expect(decodeJwt(res.body.tokens.refresh).cnf).toEqual({ jkt: key.jkt })
    const ok = await call(res.body.tokens.access)
    expect(ok.status).toBe(200)
    expect(ok.body.uid).toBe(client.client_id)
  })

  it('refuses a login without a proof, or with a wrong or stale one', async () => {
    expectRefused(await server.request('POST', LOGIN, { body: credentials() }), 'DPoP proof is missing')
    const wrongMethod = await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: await proof(key, 'GET', LOGIN) } })
    expectRefused(wrongMethod, 'DPoP proof htm does not match the request method')
    const wrongUrl = await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: await proof(key, 'POST', REFRESH) } })
    expectRefused(wrongUrl, 'DPoP proof htu does not match the request URL')
    const otherHost = await server.request('POST', LOGIN, {
      body: credentials(),
      headers: { dpop: await proof(key, 'POST', LOGIN, { htu: `https://evil.test${LOGIN}` }) },
    })
    expectRefused(otherHost, 'DPoP proof htu does not match the request URL')
    const stale = await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: await proof(key, 'POST', LOGIN, { iat: now() - 600 }) } })
    expectRefused(stale, 'DPoP proof iat is not within the accepted window')
    const future = await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: await proof(key, 'POST', LOGIN, { iat: now() + 600 }) } })
    expectRefused(future, 'DPoP proof iat is not within the accepted window')
    // Wrong credentials stay the login failure they always were, proof or not.
    const wrongSecret = await server.request('POST', LOGIN, {
      body: { ...credentials(), client_secret: 'nope' },
      headers: { dpop: await proof(key, 'POST', LOGIN) },
    })
    expect(wrongSecret.status).toBe(401)
    expect(wrongSecret.body.error).toBe('invalid_credentials')
  })

  it('compares htu after RFC 3986 normalisation, ignoring query and fragment', async () => {
    const htu = `HTTP://Exchange.TEST:80/api/sso/v1/auth/%6cogin?x=1#frag`
    const res = await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: await proof(key, 'POST', LOGIN, { htu }) } })
    expect(res.status).toBe(200)
  })

  it('refuses a replayed proof, a bad signature, alg none or HS256, and a private key in jwk', async () => {
    const once = await proof(key, 'POST', LOGIN)
    expect((await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: once } })).status).toBe(200)
    expectRefused(await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: once } }), 'DPoP proof jti has already been used')

    const [head, payload, signature] = (await proof(key, 'POST', LOGIN)).split('.')
    const tampered = `${head}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), jti: randomUUID() })).toString('base64url')}.${signature}`
    expectRefused(await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: tampered } }), 'DPoP proof signature is invalid')
    const other = await newKey()
    const otherSigned = await proof(other, 'POST', LOGIN, {}, { jwk: key.jwk })
    expectRefused(await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: otherSigned } }), 'DPoP proof signature is invalid')

    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const claims = { jti: randomUUID(), htm: 'POST', htu: `${TEST_BASE_URL}${LOGIN}`, iat: now() }
    const none = `${encode({ alg: 'none', typ: 'dpop+jwt', jwk: key.jwk })}.${encode(claims)}.`
    expectRefused(
      await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: none } }),
      `DPoP proof alg must be one of ES256, EdDSA, RS256, PS256`,
    )
    const secret = new TextEncoder().encode('a shared secret of thirty-two bytes!')
    // jose will not put a secret in a header itself: the header is written by hand, then signed.
    const hsHeader = encode({ alg: 'HS256', typ: 'dpop+jwt', jwk: { kty: 'oct', k: Buffer.from(secret).toString('base64url') } })
    const hsInput = `${hsHeader}.${encode(claims)}`
    const hs256 = `${hsInput}.${createHmac('sha256', secret).update(hsInput).digest('base64url')}`
    expectRefused(
      await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: hs256 } }),
      'DPoP proof alg must be one of ES256, EdDSA, RS256, PS256',
    )

    const privateJwk = await exportJWK(key.privateKey as CryptoKey)
    const leaked = await proof(key, 'POST', LOGIN, {}, { jwk: privateJwk })
    expectRefused(await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: leaked } }), 'DPoP proof jwk must not contain a private key')
    const wrongTyp = await proof(key, 'POST', LOGIN, {}, { typ: 'JWT' })
    expectRefused(await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: wrongTyp } }), 'DPoP proof typ must be dpop+jwt')
    const noKey = await proof(key, 'POST', LOGIN, {}, { jwk: undefined })
    expectRefused(await server.request('POST', LOGIN, { body: credentials(), headers: { dpop: noKey } }), 'DPoP proof must carry its public key in jwk')
  })

  it('refuses calls without a proof, with a wrong ath, a wrong key, a reused jti, or as Bearer', async () => {
    const { body } = await login()
    const token: string = body.tokens.access
    expectRefused(await call(token, { dpop: null }), 'DPoP proof is missing')
    expectRefused(
      await call(token, { dpop: await proof(key, 'GET', identity(), { ath: ath('another token') }) }),
      'DPoP proof ath does not match the access token',
    )
    expectRefused(await call(token, { dpop: await proof(key, 'GET', identity()) }), 'DPoP proof ath does not match the access token')
    expectRefused(await call(token, { dpop: await proof(key, 'POST', identity(), { ath: ath(token) }) }), 'DPoP proof htm does not match the request method')
    const thief = await newKey()
    expectRefused(
      await call(token, { dpop: await proof(thief, 'GET', identity(), { ath: ath(token) }) }),
      'DPoP proof key does not match the key the token is bound to',
    )
    const once = await proof(key, 'GET', identity(), { ath: ath(token) })
    expect((await call(token, { dpop: once })).status).toBe(200)
    expectRefused(await call(token, { dpop: once }), 'DPoP proof jti has already been used')
    expectRefused(await call(token, { scheme: 'Bearer', dpop: null }), 'A DPoP-bound token must be sent as Authorization: DPoP <token> with a DPoP proof')
    // A stolen token and a stolen proof of another request are useless together too.
    expectRefused(
      await call(token, { dpop: await proof(key, 'GET', identity(), { ath: ath(token), iat: now() - 600 }) }),
      'DPoP proof iat is not within the accepted window',
    )
  })

  it('checks the signature of every proof, though the key of the last ones is kept imported', async () => {
    const { body } = await login()
    const token: string = body.tokens.access
    for (let i = 0; i < 3; i++) expect((await call(token, { dpop: await proof(key, 'GET', identity(), { ath: ath(token) }) })).status).toBe(200)
    // The bound key's jwk in the header, signed by another key: the kept key verifies, and refuses.
    const thief = await newKey()
    const forged = await new SignJWT({ jti: randomUUID(), htm: 'GET', htu: `${TEST_BASE_URL}${identity()}`, iat: now(), ath: ath(token) })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
      .sign(thief.privateKey)
    expectRefused(await call(token, { dpop: forged }), 'DPoP proof signature is invalid')
    // The same key spelled with one more member is another header: imported on its own, and bound alike.
    expect((await call(token, { dpop: await proof(key, 'GET', identity(), { ath: ath(token) }, { jwk: { ...key.jwk, use: 'sig' } }) })).status).toBe(200)
  })

  it('refreshes with a proof by the same key only, and the new tokens stay bound', async () => {
    const { body } = await login()
    const refreshWith = async (token: string, dpop?: string) =>
      server.request('POST', REFRESH, { body: { refresh_token: token }, headers: dpop ? { dpop } : {} })
    expectRefused(await refreshWith(body.tokens.refresh), 'DPoP proof is missing')
    const other = await newKey()
    expectRefused(await refreshWith(body.tokens.refresh, await proof(other, 'POST', REFRESH)), 'DPoP proof key does not match the key the token is bound to')
    // Refused proofs consume nothing: the token still refreshes with the right key.
    const refreshed = await refreshWith(body.tokens.refresh, await proof(key, 'POST', REFRESH))
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.token_type).toBe('DPoP')
    expect(decodeJwt(refreshed.body.tokens.access).cnf).toEqual({ jkt: key.jkt })
    expect(decodeJwt(refreshed.body.tokens.refresh).cnf).toEqual({ jkt: key.jkt })
    expect((await call(refreshed.body.tokens.access)).status).toBe(200)
  })

  it('serves GraphQL over HTTP with proofs, for login, refresh and calls alike', async () => {
    const gql = async (query: string, variables: Record<string, unknown>, headers: Record<string, string>) =>
      server.graphql<any, Record<string, unknown>>(query, variables, { headers })
    const loginDoc = `mutation ($id: String!, $secret: String!) { login(clientId: $id, clientSecret: $secret) { tokenType claims { cnfJkt } tokens { access refresh } } }`
    const missing = await gql(loginDoc, { id: client.client_id, secret: client.client_secret }, {})
    expect(missing.errors?.[0]).toMatchObject({
      message: 'DPoP proof is missing',
      extensions: { code: 'UNAUTHENTICATED', error: 'invalid_dpop_proof' },
    })
    const loggedIn = await gql(loginDoc, { id: client.client_id, secret: client.client_secret }, { dpop: await proof(key, 'POST', '/graphql') })
    expect(loggedIn.errors).toBeUndefined()
    expect(loggedIn.data.login).toMatchObject({ tokenType: 'DPoP', claims: { cnfJkt: key.jkt } })
    const token: string = loggedIn.data.login.tokens.access
    const viewer = await gql('{ viewer { uid } }', {}, { authorization: `DPoP ${token}`, dpop: await proof(key, 'POST', '/graphql', { ath: ath(token) }) })
    expect(viewer.data).toEqual({ viewer: { uid: client.client_id } })
    const bearer = await gql('{ viewer { uid } }', {}, { authorization: `Bearer ${token}` })
    expect(bearer.status).toBe(401)
    expect(bearer.errors?.[0]).toMatchObject({ extensions: { error: 'invalid_dpop_proof' } })
    const noProof = await gql('{ viewer { uid } }', {}, { authorization: `DPoP ${token}` })
    expect(noProof.errors?.[0]).toMatchObject({ message: 'DPoP proof is missing', extensions: { error: 'invalid_dpop_proof' } })
    const refreshDoc = `mutation ($token: String!) { refresh(refreshToken: $token) { tokenType tokens { access } } }`
    const refreshed = await gql(refreshDoc, { token: loggedIn.data.login.tokens.refresh }, { dpop: await proof(key, 'POST', '/graphql') })
    expect(refreshed.data.refresh.tokenType).toBe('DPoP')
  })

  it('serves SSE and graphql-ws with proofs (connectionParams.dpop)', async () => {
    const { body } = await login()
    const token: string = body.tokens.access
    const path = '/api/exchange/v1/events'
    const sse = await openSse(`${server.url}${path}`, { headers: { authorization: `DPoP ${token}`, dpop: await proof(key, 'GET', path, { ath: ath(token) }) } })
    expect(sse.status).toBe(200)
    sse.close()
    const noProof = await fetch(`${server.url}${path}`, { headers: { accept: 'text/event-stream', authorization: `DPoP ${token}` } })
    expect(noProof.status).toBe(401)
    expect(await noProof.json()).toEqual(refused('DPoP proof is missing'))

    const socket = await openGraphQLSocket(server.url)
    socket.send({ type: 'connection_init', payload: { authorization: `DPoP ${token}`, dpop: await proof(key, 'GET', '/graphql', { ath: ath(token) }) } })
    await socket.waitFor((m) => m.type === 'connection_ack')
    socket.subscribe('1', '{ viewer { uid } }')
    const messages = await socket.operation('1')
    expect(messages[0]).toEqual({ id: '1', type: 'next', payload: { data: { viewer: { uid: client.client_id } } } })
    socket.close()

    const bare = await openGraphQLSocket(server.url)
    bare.send({ type: 'connection_init', payload: { authorization: `DPoP ${token}` } })
    expect(await bare.closed).toEqual({ code: 4403, reason: 'DPoP proof is missing' })
    const wrongUrl = await openGraphQLSocket(server.url)
    wrongUrl.send({ type: 'connection_init', payload: { authorization: `DPoP ${token}`, dpop: await proof(key, 'POST', '/graphql', { ath: ath(token) }) } })
    expect(await wrongUrl.closed).toEqual({ code: 4403, reason: 'DPoP proof htm does not match the request method' })
  })

  it('leaves clients without the setting on plain Bearer, and set-dpop switches a client with its sessions revoked', async () => {
    const plain = await createTestClient(server, { funded: false })
    const bearer = await server.request('GET', identity(plain.clientId), { token: plain.token })
    expect(bearer.status).toBe(200)
    const asDpop = await server.request('GET', identity(plain.clientId), { headers: { authorization: `DPoP ${plain.token}` } })
    expectRefused(asDpop, 'The token is not DPoP-bound: send it as Authorization: Bearer <token>')

    const switched = await setClientDpop(server.services.db, { client_id: plain.clientId, dpop: 'required' })
    expect(switched).toMatchObject({ client_id: plain.clientId, dpop: 'required', revoked_sessions: 1 })
    const after = await eventually(async () => {
      const res = await server.request('GET', identity(plain.clientId), { token: plain.token })
      return res.status === 401 ? res : undefined
    }, 10_000)
    expect(after.body).toEqual({ message: 'JWT has been revoked', error: 'Unauthorized', detail: 'JWT has been revoked' })
    const body = { client_id: plain.clientId, client_secret: plain.clientSecret }
    expectRefused(await server.request('POST', LOGIN, { body }), 'DPoP proof is missing')
    const bound = await server.request('POST', LOGIN, { body, headers: { dpop: await proof(key, 'POST', LOGIN) } })
    expect(bound.body.token_type).toBe('DPoP')

    const off = await setClientDpop(server.services.db, { client_id: plain.clientId, dpop: 'off' })
    expect(off).toMatchObject({ dpop: 'off', revoked_sessions: 0 })
    const unbound = await server.request('POST', LOGIN, { body })
    expect(unbound.body.token_type).toBe('access')
    expect(unbound.body.cnf).toBeUndefined()
  })

  it('forgets proofs once their window has passed', async () => {
    const { db } = server.services
    await sql`insert into dpop_proofs (jkt, jti, expires_at) values ('old', 'old', timezone('utc', now()) - interval '1 hour')`.execute(db)
    await server.services.proofReplays.purge()
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from dpop_proofs where jkt = 'old'`.execute(db)
    expect(rows[0]!.n).toBe(0)
  })
})

// PGlite serves one process; two servers on one database need PostgreSQL.
describe.skipIf(!onPostgres)('DPoP proof replays across two server processes', () => {
  let a: TestServer
  let b: ServerProcess

  beforeAll(async () => {
    a = await startTestServer()
    b = await startServerProcess({ DATABASE_URL: a.database.databaseUrl!, DATA_DIR: a.database.dataDir, PUBLIC_BASE_URL: TEST_BASE_URL })
  }, 90_000)
  afterAll(async () => {
    await b?.stop()
    await a?.close()
  })

  it('refuses on one process a proof the other accepted', async () => {
    const key = await newKey('EdDSA')
    const client = await createClient(a.services.db, { name: 'Two-process bank', dpop: 'required' })
    const body = JSON.stringify({ client_id: client.client_id, client_secret: client.client_secret })
    const post = (base: string, dpop: string) => fetch(`${base}${LOGIN}`, { method: 'POST', headers: { 'content-type': 'application/json', dpop }, body })
    const once = await proof(key, 'POST', LOGIN)
    const first = await post(a.url, once)
    expect(first.status).toBe(200)
    const replay = await post(b.url, once)
    expect({ status: replay.status, body: await replay.json() }).toEqual({ status: 401, body: refused('DPoP proof jti has already been used') })

    const { tokens } = (await first.json()) as { tokens: { access: string } }
    const path = `/api/sso/v1/users/${client.client_id}`
    const callProof = await proof(key, 'GET', path, { ath: ath(tokens.access) })
    const get = (base: string) => fetch(`${base}${path}`, { headers: { authorization: `DPoP ${tokens.access}`, dpop: callProof } })
    expect((await get(b.url)).status).toBe(200)
    const replayed = await get(a.url)
    expect({ status: replayed.status, body: await replayed.json() }).toEqual({ status: 401, body: refused('DPoP proof jti has already been used') })
  })
})

describe('client create --dpop and client set-dpop (CLI)', () => {
  let database: TestDatabase
  let cli: OpenCli

  beforeAll(async () => {
    database = await createTestDatabase()
    cli = await openCli(database)
  })
  afterAll(async () => {
    await cli?.close()
    await database?.drop()
  })

  it('creates a client that requires DPoP, switches it off and on, and refuses bad arguments', async () => {
    const created = JSON.parse((await cli.run('client', 'create', '--name', 'DPoP CLI Bank', '--dpop', 'required')).stdout)
    expect(created).toMatchObject({ dpop: 'required' })
    const listed = (await cli.run('client', 'list')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(listed.find((c) => c.client_id === created.client_id)).toMatchObject({ dpop: 'required' })
    const plain = JSON.parse((await cli.run('client', 'create', '--name', 'Plain CLI Bank')).stdout)
    expect(Object.keys(plain)).toEqual(['client_id', 'client_secret', 'tenant_id', 'roles', 'scopes'])

    expect(JSON.parse((await cli.run('client', 'set-dpop', created.client_id, 'off')).stdout)).toMatchObject({
      client_id: created.client_id,
      dpop: 'off',
      revoked_sessions: 0,
    })
    expect(JSON.parse((await cli.run('client', 'set-dpop', created.client_id, 'required')).stdout)).toMatchObject({ dpop: 'required' })

    const badValue = await cli.run('client', 'set-dpop', created.client_id, 'maybe')
    expect(badValue.code).toBe(1)
    expect(badValue.stderr).toMatch(/^Validation failed\n {2}required\|off: /)
    const badFlag = await cli.run('client', 'create', '--name', 'X', '--dpop', 'sometimes')
    expect(badFlag.code).toBe(1)
    expect(badFlag.stderr).toMatch(/^Validation failed\n {2}--dpop: /)
    expect((await cli.run('client', 'set-dpop', created.client_id)).code).toBe(1)
    const missing = await cli.run('client', 'set-dpop', randomUUID(), 'off')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/does not exist/)
  })
})

const redisTestUrl = process.env.REDIS_TEST_URL || undefined

describe.skipIf(!redisTestUrl)('DPoP proof replays in Redis (REDIS_URL set)', () => {
  let server: TestServer
  let redis: Redis

  beforeAll(async () => {
    server = await startTestServer({ REDIS_URL: redisTestUrl! })
    redis = new Redis(redisTestUrl!)
  })
  afterAll(async () => {
    redis?.disconnect()
    await server?.close()
  })

  it('keeps seen proofs in Redis, expiring with their window, and refuses a replay', async () => {
    const key = await newKey('RS256')
    const client = await createClient(server.services.db, { name: 'Redis DPoP bank', dpop: 'required' })
    const body = { client_id: client.client_id, client_secret: client.client_secret }
    const jti = randomUUID()
    const once = await proof(key, 'POST', LOGIN, { jti })
    expect((await server.request('POST', LOGIN, { body, headers: { dpop: once } })).status).toBe(200)
    const replay = await server.request('POST', LOGIN, { body, headers: { dpop: once } })
    expect({ status: replay.status, body: replay.body }).toEqual({ status: 401, body: refused('DPoP proof jti has already been used') })
    const ttl = await redis.ttl(`dpop:${key.jkt}:${jti}`)
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(server.config.clockSkew + 1)
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from dpop_proofs`.execute(server.services.db)
    expect(rows[0]!.n).toBe(0)
  })
})
