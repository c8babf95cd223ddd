import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { failure, runCommand } from '../src/app/cli-commands.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { onPostgres } from './helpers/database.ts'
import { eventually } from './helpers/eventually.ts'
import { openGraphQLSocket } from './helpers/graphql-socket.ts'
import { type ServerProcess, startServerProcess } from './helpers/process.ts'
import { startTestServer, TEST_BASE_URL, type TestServer } from './helpers/server.ts'

const NOT_ALLOWED = { message: 'Address not allowed', error: 'permission_denied', detail: 'Address not allowed' }

/**
 * A CLI command in this process on `server`'s database, then the server's reload of credentials
 * (which runs every 2 s on its own; the second-process test below waits for it instead).
 */
async function cliOn(server: TestServer, ...args: string[]) {
  let stdout = ''
  try {
    await runCommand(server.config, server.services.db, args, (text) => void (stdout += text))
    await server.services.revocations.reload()
    return { code: 0, stdout, stderr: '' }
  } catch (error) {
    return { stdout, ...failure(error) }
  }
}

const from = (address: string) => ({ 'x-forwarded-for': address })

describe('address allow-lists behind one trusted proxy', () => {
  let server: TestServer
  let bank: TestClient
  const cli = (...args: string[]) => cliOn(server, ...args)
  const login = (address: string, secret = bank.clientSecret) =>
    server.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.clientId, client_secret: secret }, headers: from(address) })

  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: '1' })
    bank = await createTestClient(server, { funded: false })
  })
  afterAll(() => server?.close())

  it('refuses bad ranges naming them, and unknown clients', async () => {
    const bad = await cli('client', 'set-allowed-ips', bank.clientId, '10.0.0.0/8,10.0.0.0/33,example.com')
    expect(bad).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Validation failed\n  CIDR[,CIDR…]: not an IPv4 or IPv6 address or CIDR range: "10.0.0.0/33", "example.com" (use none to allow every address)\n',
    })
    const long = await cli('client', 'set-allowed-ips', bank.clientId, '1.2.3.4,'.repeat(1000))
    expect(long.stderr).toBe('Validation failed\n  CIDR[,CIDR…]: at most 100 ranges\n')
    expect(await cli('client', 'set-allowed-ips', '00000000-0000-4000-8000-000000000000', 'none')).toMatchObject({
      code: 1,
      stderr: 'Client 00000000-0000-4000-8000-000000000000 does not exist\n',
    })
    expect((await cli('client', 'set-allowed-ips', bank.clientId)).code).toBe(1)
    // Nothing was stored: the client still logs in from anywhere.
    expect((await login('192.0.2.1')).status).toBe(200)
  })

  it('lets a client log in, refresh and call only from its IPv4 and IPv6 ranges, on both faces', async () => {
    const set = await cli('client', 'set-allowed-ips', bank.clientId, '10.0.0.0/8, 2001:DB8::/32,192.0.2.7')
    expect(set.stderr).toBe('')
    expect(JSON.parse(set.stdout)).toEqual({ client_id: bank.clientId, allowed_ips: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7/32'] })

    const inside = await login('10.1.2.3')
    expect(inside.status).toBe(200)
    expect((await login('2001:db8::7')).status).toBe(200)
    expect((await login('192.0.2.7')).status).toBe(200)
    for (const address of ['192.0.2.8', '2001:db9::1', '11.0.0.1']) {
      const outside = await login(address)
      expect({ address, status: outside.status, body: outside.body }).toEqual({ address, status: 403, body: NOT_ALLOWED })
    }
    // A wrong secret is a wrong secret wherever it comes from: the list is said only to its holder.
    expect((await login('192.0.2.8', 'wrong')).status).toBe(401)

    const token = inside.body.tokens.access as string
    const call = (address: string) => server.request('GET', '/api/exchange/v1/symbols', { token, headers: from(address) })
    expect((await call('10.9.9.9')).status).toBe(200)
    expect(await call('192.0.2.8').then((r) => [r.status, r.body])).toEqual([403, NOT_ALLOWED])
    const me = await server.request('GET', `/api/sso/v1/users/${bank.clientId}`, { token, headers: from('192.0.2.8') })
    expect([me.status, me.body]).toEqual([403, NOT_ALLOWED])

    const gql = (address: string) => server.graphql('query { symbols { total } }', undefined, { token, headers: from(address) })
    expect((await gql('10.9.9.9')).errors).toBeUndefined()
    const refused = await gql('192.0.2.8')
    expect(refused.errors?.map((e) => [e.message, e.extensions.code])).toEqual([['Address not allowed', 'FORBIDDEN']])
    const gqlLogin = await server.graphql(`mutation { login(clientId: "${bank.clientId}", clientSecret: "${bank.clientSecret}") { expiresIn } }`, undefined, {
      headers: from('192.0.2.8'),
    })
    expect(gqlLogin.errors?.map((e) => [e.message, e.extensions.code])).toEqual([['Address not allowed', 'FORBIDDEN']])

    const refresh = (address: string, refreshToken: string) =>
      server.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: refreshToken }, headers: from(address) })
    const outsideRefresh = await refresh('192.0.2.8', inside.body.tokens.refresh)
    expect([outsideRefresh.status, outsideRefresh.body]).toEqual([403, NOT_ALLOWED])
    // Refused before it was used: the token still works from inside.
    expect((await refresh('10.0.0.1', inside.body.tokens.refresh)).status).toBe(200)

    // A WebSocket comes from the test's own address (no proxy header), outside the list.
    const socket = await openGraphQLSocket(server.url)
    await expect(socket.init(`Bearer ${token}`)).rejects.toThrow()
    expect(await socket.closed).toEqual({ code: 4403, reason: 'Address not allowed' })

    await server.services.audit.flush()
    const denied = await server.services.db
      .selectFrom('audit_records')
      .select(['ip', 'outcome', 'details', 'target_id'])
      .where('action', '=', 'auth.address_denied')
      .where('actor_client_id', '=', bank.clientId)
      .orderBy('seq')
      .execute()
    const counts = new Map<string, number>()
    for (const row of denied) {
      expect(row.outcome).toBe('denied')
      const key = `${row.ip} ${String(row.details.via)}`
      counts.set(key, (counts.get(key) ?? 0) + Number(row.details.count))
    }
    expect(Object.fromEntries(counts)).toEqual({
      '192.0.2.8 login': 2,
      '2001:db9::1 login': 1,
      '11.0.0.1 login': 1,
      '192.0.2.8 call': 3,
      '192.0.2.8 refresh': 1,
      '127.0.0.1 call': 1,
    })

    // `none` clears the list.
    expect(JSON.parse((await cli('client', 'set-allowed-ips', bank.clientId, 'none')).stdout)).toEqual({ client_id: bank.clientId, allowed_ips: [] })
    expect((await call('192.0.2.8')).status).toBe(200)
    expect((await login('198.51.100.1')).status).toBe(200)
  })
})

describe('without a trusted proxy', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server?.close())

  it('takes the socket peer, not X-Forwarded-For, which anyone can write', async () => {
    const bank = await createTestClient(server, { funded: false })
    expect((await cliOn(server, 'client', 'set-allowed-ips', bank.clientId, '10.0.0.0/8')).code).toBe(0)
    const res = await server.request('GET', '/api/exchange/v1/symbols', { token: bank.token, headers: from('10.1.1.1') })
    expect([res.status, res.body]).toEqual([403, NOT_ALLOWED])
    expect((await cliOn(server, 'client', 'set-allowed-ips', bank.clientId, '127.0.0.1,::1')).code).toBe(0)
    expect((await server.request('GET', '/api/exchange/v1/symbols', { token: bank.token })).status).toBe(200)
  })
})

// PGlite serves one process; two servers on one database need PostgreSQL.
describe.skipIf(!onPostgres)('a second server process', () => {
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

  it('applies a change made elsewhere within 5 s, both ways', async () => {
    const bank = await createTestClient(a, { funded: false })
    const call = () => fetch(`${b.url}/api/exchange/v1/symbols`, { headers: { authorization: `Bearer ${bank.token}` } })
    expect((await call()).status).toBe(200)
    expect((await cliOn(a, 'client', 'set-allowed-ips', bank.clientId, '10.0.0.0/8')).code).toBe(0)
    const refused = await eventually(async () => {
      const res = await call()
      return res.status === 200 ? undefined : { status: res.status, body: await res.json() }
    }, 5000)
    expect(refused).toEqual({ status: 403, body: NOT_ALLOWED })
    expect((await cliOn(a, 'client', 'set-allowed-ips', bank.clientId, 'none')).code).toBe(0)
    await eventually(async () => ((await call()).status === 200 ? true : undefined), 5000)
  })
})
