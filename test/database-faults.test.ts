import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createTestDatabase, onPostgres, postgresUrl, type TestDatabase } from './helpers/database.ts'
import { probeApp } from './helpers/probe-app.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'
import { startTcpProxy } from './helpers/tcp-proxy.ts'

const UNAVAILABLE = { message: 'The service is temporarily unavailable', error: 'service_unavailable', detail: 'The service is temporarily unavailable' }
const TIMEOUT = { message: 'The database did not answer in time', error: 'gateway_timeout', detail: 'The database did not answer in time' }

/** Polls until `/readyz` answers 200; returns how long that took. */
async function recoveryTime(server: TestServer, withinMs: number): Promise<number> {
  const started = Date.now()
  for (;;) {
    const ready = await server.request('GET', '/readyz')
    if (ready.status === 200) return Date.now() - started
    if (Date.now() - started > withinMs) throw new Error(`not ready ${withinMs} ms after the database came back: ${ready.text}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function expectUnavailable(server: TestServer) {
  const ready = await server.request('GET', '/readyz')
  expect(ready.status).toBe(503)
  expect(ready.body).toEqual({ status: 'unavailable', database: 'unreachable' })
  expect(ready.headers.get('retry-after')).toBe('5')

  const rest = await server.request('GET', '/probe/clients')
  expect(rest.status).toBe(503)
  expect(rest.body).toEqual(UNAVAILABLE)
  expect(rest.headers.get('retry-after')).toBe('5')

  const gql = await server.graphql<{ clients: number }, never>('{ clients }')
  expect(gql.status).toBe(503)
  expect(gql.headers.get('retry-after')).toBe('5')
  expect(gql.data).toBeNull()
  expect(gql.errors).toEqual([
    {
      message: 'The service is temporarily unavailable',
      locations: [{ line: 1, column: 3 }],
      path: ['clients'],
      extensions: { code: 'SERVICE_UNAVAILABLE', error: 'service_unavailable' },
    },
  ])
  // The process itself is up.
  expect((await server.request('GET', '/healthz')).status).toBe(200)
}

async function expectServing(server: TestServer) {
  const rest = await server.request('GET', '/probe/clients')
  expect(rest.status).toBe(200)
  expect(rest.body).toEqual({ clients: expect.any(Number) })
  const gql = await server.graphql<{ clients: number }, never>('{ clients }')
  expect(gql.status).toBe(200)
  expect(gql.data).toEqual({ clients: expect.any(Number) })
}

describe.skipIf(!onPostgres)('PostgreSQL faults', () => {
  let database: TestDatabase
  let server: TestServer
  let admin: pg.Client
  let name: string
  beforeAll(async () => {
    database = await createTestDatabase()
    name = new URL(database.databaseUrl!).pathname.slice(1)
    server = await startTestServer({ STATEMENT_TIMEOUT_MS: '300' }, database, { app: probeApp() })
    admin = new pg.Client({ connectionString: postgresUrl })
    await admin.connect()
  })
  afterAll(async () => {
    await admin?.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => {})
    await admin?.end()
    await server?.close()
  })

  it('answers 503 while the database refuses connections, and recovers by itself when it is back', async () => {
    await expectServing(server)
    // The database stops accepting connections and every open one is cut, pooled ones included.
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`)
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name])
    await expectUnavailable(server)
    await expectUnavailable(server)

    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`)
    expect(await recoveryTime(server, 5000)).toBeLessThan(5000)
    await expectServing(server)
  })

  it('answers 503 while the database server is gone (connection refused), and recovers when it returns', async () => {
    const target = new URL(database.databaseUrl!)
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432))
    const viaProxy = new URL(target)
    viaProxy.port = String(proxy.port)
    const proxied = await startTestServer({ DATABASE_URL: viaProxy.toString() }, database, { app: probeApp() })
    try {
      await expectServing(proxied)
      await proxy.refuse()
      await expectUnavailable(proxied)
      await proxy.restore()
      expect(await recoveryTime(proxied, 5000)).toBeLessThan(5000)
      await expectServing(proxied)
    } finally {
      await proxied.stop()
      await proxy.close()
    }
  })

  it('answers 504 when a statement runs past STATEMENT_TIMEOUT_MS, without holding the pool', async () => {
    // Another session holds a lock the probe's query must wait for: it blocks past the 300 ms budget.
    const locker = new pg.Client({ connectionString: database.databaseUrl })
    await locker.connect()
    try {
      await locker.query('BEGIN')
      await locker.query('LOCK TABLE clients IN ACCESS EXCLUSIVE MODE')
      const started = Date.now()
      const rest = await server.request('GET', '/probe/clients')
      expect(rest.status).toBe(504)
      expect(rest.body).toEqual(TIMEOUT)
      expect(Date.now() - started).toBeLessThan(3000)
      const gql = await server.graphql('{ clients }')
      expect(gql.status).toBe(504)
      expect(gql.errors?.[0]).toMatchObject({ message: TIMEOUT.message, extensions: { code: 'GATEWAY_TIMEOUT', error: 'gateway_timeout' } })
      // Statements that need no lock still run.
      expect((await server.request('GET', '/readyz')).status).toBe(200)
    } finally {
      await locker.query('ROLLBACK').catch(() => {})
      await locker.end()
    }
    await expectServing(server)
  })
})

describe.skipIf(onPostgres)('embedded database (PGlite) faults', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({}, undefined, { app: probeApp() })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('answers every in-flight request when the embedded database fails under load, then 503s, without crashing', async () => {
    await expectServing(server)
    const inFlight = Array.from({ length: 60 }, (_, i) =>
      i % 2 ? server.request('GET', '/probe/clients').then((r) => r.status) : server.graphql('{ clients }').then((r) => r.status),
    )
    // The embedded database goes away while those are being served.
    await new Promise((r) => setTimeout(r, 5))
    await server.services.database.close()
    const statuses = await Promise.all(inFlight)
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true)
    expect(statuses).toContain(503)
  })

  it('keeps answering 503 afterwards, the process alive', async () => {
    await expectUnavailable(server)
  })
})

describe('text the database cannot store', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({}, undefined, { app: probeApp() })
  })
  afterAll(async () => {
    await server?.close()
  })

  it('answers a NUL character in a parameter with 400, not 500', async () => {
    const BAD = {
      message: 'Text must be valid Unicode without NUL characters',
      error: 'bad_request',
      detail: 'Text must be valid Unicode without NUL characters',
    }
    const rest = await server.request('GET', '/probe/clients?name=a%00b')
    expect(rest.status).toBe(400)
    expect(rest.body).toEqual(BAD)
    const gql = await server.graphql('query Q($n: String) { clients(name: $n) }', { n: 'a\u0000b' })
    expect(gql.status).toBe(400)
    expect(gql.errors?.[0]).toMatchObject({ message: BAD.message, extensions: { code: 'BAD_REQUEST', error: 'bad_request' } })
    expect((await server.request('GET', '/probe/clients?name=ok')).body).toEqual({ clients: 0 })
  })
})
