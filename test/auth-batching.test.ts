import { randomUUID } from 'node:crypto'

import { decodeJwt } from 'jose'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { loginSucceeded } from '../src/modules/audit/auth-audit.ts'
import { createClient, deactivateClient, rotateClientSecret } from '../src/modules/auth/clients/clients.ts'
import { timestampAt } from '../src/modules/auth/sessions/session-tokens.ts'
import { findSession, listRefreshTokens } from '../src/modules/auth/sessions/sessions.repository.ts'
import { tokenSha256 } from '../src/modules/auth/tokens/tokens.ts'
import { withoutBackgroundPolls } from './helpers/background.ts'
import { createTestDatabase, onPostgres, postgresUrl } from './helpers/database.ts'
import { eventually } from './helpers/eventually.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'
import { postSimultaneously, type SimultaneousResponse } from './helpers/simultaneous.ts'

const INVALID = { message: 'JWT has an invalid format', error: 'Unauthorized', detail: 'JWT has an invalid format' }
const UNAVAILABLE = { message: 'The service is temporarily unavailable', error: 'service_unavailable', detail: 'The service is temporarily unavailable' }

type LoginBody = { session_id: string; tokens: { access: string; refresh: string } }

let server: TestServer
let bank: Awaited<ReturnType<typeof createClient>>

beforeAll(async () => {
  server = await startTestServer()
  bank = await createClient(server.services.db, { name: 'Bank Tejarat' })
})
afterAll(async () => {
  await server?.close()
})

const loginRequest = (target = server) =>
  target.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.client_id, client_secret: bank.client_secret } })
const refreshRequest = (token: string, target = server) => target.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: token } })
const whoAmI = (token: string) => server.request('GET', `/api/sso/v1/users/${bank.client_id}`, { token })

async function login(): Promise<LoginBody> {
  const res = await loginRequest()
  expect(res.status).toBe(200)
  return res.body
}

/** Runs `fn` and returns how many statements it sent, with no background poll counted. */
async function statementsOf(fn: () => Promise<void>): Promise<number> {
  let statements = 0
  await withoutBackgroundPolls(server.services, async () => {
    const before = server.services.database.queryCount()
    await fn()
    statements = server.services.database.queryCount() - before
  })
  return statements
}

/** A rotation of `token` as the refresh operation asks for it. */
function rotationOf(token: string, nextJti: string = randomUUID()) {
  const claims = decodeJwt(token)
  return {
    jti: claims.jti!,
    sessionId: claims.session_id as string,
    clientId: claims.sub!,
    tenantId: claims.tenant_id as string,
    presentedSha256: tokenSha256(token),
    signatureChecked: false,
    nextJti,
    nextSha256: tokenSha256(`successor ${nextJti}`),
    expiresAt: timestampAt(Math.floor(Date.now() / 1000) + 3600),
  }
}

describe('concurrent logins and refreshes share statements', () => {
  it('answers N concurrent logins with N distinct working sessions, in fewer statements than N', async () => {
    const N = 40
    const credentials = { client_id: bank.client_id, client_secret: bank.client_secret }
    let results: SimultaneousResponse[] = []
    const statements = await statementsOf(async () => {
      results = await postSimultaneously(server.url, '/api/sso/v1/auth/login', Array(N).fill(credentials))
    })
    expect(results.map((r) => r.status)).toEqual(Array(N).fill(200))
    expect(statements).toBeLessThan(N)
    const sessions = results.map((r) => r.body.session_id as string)
    expect(new Set(sessions).size).toBe(N)
    for (const res of results) {
      const refresh = decodeJwt(res.body.tokens.refresh)
      expect(refresh.session_id).toBe(res.body.session_id)
      const session = await findSession(server.services.db, res.body.session_id)
      expect(session).toMatchObject({ client_id: bank.client_id, tenant_id: bank.tenant_id, expires_at: timestampAt(refresh.exp!), revoked_at: null })
      expect(await listRefreshTokens(server.services.db, res.body.session_id)).toEqual([
        expect.objectContaining({ jti: refresh.jti, expires_at: timestampAt(refresh.exp!), used_at: null }),
      ])
    }
    const refreshed = await Promise.all(results.map((r) => refreshRequest(r.body.tokens.refresh)))
    expect(refreshed.map((r) => r.status)).toEqual(Array(N).fill(200))
    expect((await whoAmI(results[N - 1]!.body.tokens.access)).status).toBe(200)
  })

  it('answers N concurrent refreshes of distinct tokens in fewer statements than N, each in its own session', async () => {
    const N = 40
    const sessions = await Promise.all(Array.from({ length: N }, () => login()))
    let results: SimultaneousResponse[] = []
    const statements = await statementsOf(async () => {
      const bodies = sessions.map((s) => ({ refresh_token: s.tokens.refresh }))
      results = await postSimultaneously(server.url, '/api/sso/v1/auth/refresh', bodies)
    })
    expect(results.map((r) => r.status)).toEqual(Array(N).fill(200))
    expect(statements).toBeLessThan(N)
    for (const [i, res] of results.entries()) {
      const next = decodeJwt(res.body.tokens.refresh)
      expect(next.session_id).toBe(sessions[i]!.session_id)
      const rows = await listRefreshTokens(server.services.db, sessions[i]!.session_id)
      expect(rows.map((r) => [r.jti, r.used_at === null])).toEqual([
        [decodeJwt(sessions[i]!.tokens.refresh).jti, false],
        [next.jti, true],
      ])
      expect((await findSession(server.services.db, sessions[i]!.session_id))!.expires_at).toBe(timestampAt(next.exp!))
    }
  })

  it("counts none of an earlier login's audit record as the next statements' (it is written first)", async () => {
    const { session_id } = await login()
    const { audit } = server.services
    await audit.written()
    const gatherMs = audit.gatherMs
    // Held back, as a login's record is while it waits for others to share its statement.
    audit.gatherMs = 60_000
    try {
      loginSucceeded(
        { services: server.services, clientIp: '127.0.0.1', requestId: 'req-behind' },
        { sub: bank.client_id, tenant_id: bank.tenant_id, session_id },
      )
      expect(await statementsOf(() => audit.written())).toBe(0)
    } finally {
      audit.gatherMs = gatherMs
    }
  })

  it('consumes a token listed many times in one batch once: one winner, the others refused', async () => {
    const { session_id, tokens } = await login()
    const rotations = Array.from({ length: 20 }, () => rotationOf(tokens.refresh))
    let outcomes: unknown[] = []
    // Submitted in one turn of the event loop: one batch, one statement.
    const statements = await statementsOf(async () => {
      outcomes = await Promise.all(rotations.map((r) => server.services.sessionWrites.rotate(r)))
    })
    expect(statements).toBe(1)
    const winners = outcomes.flatMap((o, i) => (o ? [{ outcome: o, rotation: rotations[i]! }] : []))
    expect(winners).toHaveLength(1)
    expect(winners[0]!.outcome).toMatchObject({ next_jti: winners[0]!.rotation.nextJti, session_id, tenant_id: bank.tenant_id })
    const rows = await listRefreshTokens(server.services.db, session_id)
    expect(rows.map((r) => r.jti).sort()).toEqual([decodeJwt(tokens.refresh).jti, winners[0]!.rotation.nextJti].sort())
  })

  it('lets exactly one refresh per token win when several tokens are each raced over HTTP', async () => {
    const sessions = await Promise.all(Array.from({ length: 6 }, () => login()))
    const attempts = sessions.flatMap((s, i) => Array.from({ length: 8 }, () => ({ i, token: s.tokens.refresh })))
    attempts.sort(() => Math.random() - 0.5)
    const results = await Promise.all(attempts.map(async (a) => ({ i: a.i, res: await refreshRequest(a.token) })))
    for (const [i, session] of sessions.entries()) {
      const mine = results.filter((r) => r.i === i)
      expect(mine.filter((r) => r.res.status === 200)).toHaveLength(1)
      for (const loser of mine.filter((r) => r.res.status !== 200)) {
        expect(loser.res.status).toBe(401)
        expect(loser.res.body).toEqual(INVALID)
      }
      expect(await listRefreshTokens(server.services.db, session.session_id)).toHaveLength(2)
    }
  })
})

describe('client changes during batched logins', () => {
  it('applies a new secret and a deactivation to the very next login while other logins are in flight', async () => {
    const changing = await createClient(server.services.db, { name: 'Bank Keshavarzi' })
    const as = (client_id: string, client_secret: string) => server.request('POST', '/api/sso/v1/auth/login', { body: { client_id, client_secret } })
    const background = Promise.all(Array.from({ length: 20 }, () => loginRequest()))
    const { client_secret } = await rotateClientSecret(server.services.db, changing.client_id)
    const [old, fresh] = await Promise.all([as(changing.client_id, changing.client_secret), as(changing.client_id, client_secret)])
    expect(old.status).toBe(401)
    expect(fresh.status).toBe(200)
    await deactivateClient(server.services.db, changing.client_id)
    expect((await as(changing.client_id, client_secret)).status).toBe(401)
    expect((await background).map((r) => r.status)).toEqual(Array(20).fill(200))
  })

  it('finds a client whose id is given in upper case, as PostgreSQL reads it', async () => {
    const res = await server.request('POST', '/api/sso/v1/auth/login', { body: { client_id: bank.client_id.toUpperCase(), client_secret: bank.client_secret } })
    expect(res.status).toBe(200)
    expect(res.body.sub).toBe(bank.client_id)
  })
})

describe('an item breaking a constraint', () => {
  it('fails only its own login insert; the rest of the batch is written', async () => {
    const now = Math.floor(Date.now() / 1000)
    const sessions = Array.from({ length: 5 }, (_, i) => ({
      id: randomUUID(),
      // Not a client: the foreign key refuses it.
      client_id: i === 2 ? randomUUID() : bank.client_id,
      tenant_id: bank.tenant_id,
      expires_at: timestampAt(now + 3600),
      refresh_jti: randomUUID(),
      refresh_sha256: tokenSha256(randomUUID()),
    }))
    const outcomes = await Promise.allSettled(sessions.map((s) => server.services.sessionWrites.openSession(s)))
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'])
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: '23503' })
    for (const [i, s] of sessions.entries()) {
      expect(Boolean(await findSession(server.services.db, s.id))).toBe(i !== 2)
      expect(await listRefreshTokens(server.services.db, s.id)).toHaveLength(i === 2 ? 0 : 1)
    }
  })

  it('fails only its own rotation, which consumes nothing; the others rotate', async () => {
    const sessions = await Promise.all(Array.from({ length: 3 }, () => login()))
    const taken = decodeJwt(sessions[0]!.tokens.refresh).jti!
    // The second asks for a successor id that already exists: the primary key refuses it.
    const rotations = sessions.map((s, i) => rotationOf(s.tokens.refresh, i === 1 ? taken : randomUUID()))
    const outcomes = await Promise.allSettled(rotations.map((r) => server.services.sessionWrites.rotate(r)))
    expect(outcomes[0]).toMatchObject({ status: 'fulfilled', value: { next_jti: rotations[0]!.nextJti } })
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { code: '23505' } })
    expect(outcomes[2]).toMatchObject({ status: 'fulfilled', value: { next_jti: rotations[2]!.nextJti } })
    expect((await listRefreshTokens(server.services.db, sessions[1]!.session_id)).map((r) => r.used_at)).toEqual([null])
    expect((await refreshRequest(sessions[1]!.tokens.refresh)).status).toBe(200)
  })
})

// Cutting the connections of a live PostgreSQL while a batch waits needs a real server.
describe.skipIf(!onPostgres)('a database outage while batches are in flight', () => {
  let admin: pg.Client
  let locker: pg.Client
  let outage: TestServer
  let name: string

  beforeAll(async () => {
    const database = await createTestDatabase()
    name = new URL(database.databaseUrl!).pathname.slice(1)
    outage = await startTestServer({}, database)
    admin = new pg.Client({ connectionString: postgresUrl })
    await admin.connect()
    locker = new pg.Client({ connectionString: database.databaseUrl })
    await locker.connect()
  })
  afterAll(async () => {
    await locker?.end().catch(() => {})
    await admin?.end()
    await outage?.close()
  })

  /** Holds `table` so writes to it wait, until the returned function releases it. */
  async function holdWrites(table: 'sessions' | 'refresh_tokens') {
    await locker.query('BEGIN')
    await locker.query(`LOCK TABLE ${table} IN SHARE MODE`)
    return () => locker.query('COMMIT')
  }

  /** Waits until a statement of the server waits on the lock, then cuts every connection of the server. */
  async function cutWhileWaiting() {
    const lockerPid = (locker as unknown as { processID: number }).processID
    await eventually(
      async () => {
        const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND pid <> $2", [
          name,
          lockerPid,
        ])
        return rows[0].n > 0 ? true : undefined
      },
      5000,
      20,
    )
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> $2', [name, lockerPid])
  }

  it('answers each login of a cut batch 503, writes none of them, and loses no login it answered 200', async () => {
    const client = await createClient(outage.services.db, { name: 'Bank Sepah' })
    const body = { client_id: client.client_id, client_secret: client.client_secret }
    const answered = await Promise.all(Array.from({ length: 10 }, () => outage.request('POST', '/api/sso/v1/auth/login', { body })))
    const release = await holdWrites('sessions')
    const inFlight = Promise.all(Array.from({ length: 30 }, () => outage.request('POST', '/api/sso/v1/auth/login', { body })))
    await cutWhileWaiting()
    await release()
    const cut = await inFlight
    const all = [...answered, ...cut]
    for (const res of all) {
      expect([200, 503]).toContain(res.status)
      if (res.status === 503) {
        expect(res.body).toEqual(UNAVAILABLE)
        expect(res.headers.get('retry-after')).toBe('5')
      }
    }
    expect(cut.filter((r) => r.status === 503).length).toBeGreaterThan(0)
    const ok = all.filter((r) => r.status === 200)
    // What was answered 200 is there, and only that: the cut statements wrote nothing.
    const { rows } = await locker.query('SELECT count(*)::int AS n FROM sessions WHERE client_id = $1', [client.client_id])
    expect(rows[0].n).toBe(ok.length)
    const refreshed = await Promise.all(ok.map((r) => refreshAfterOutage(r.body.tokens.refresh)))
    expect(refreshed.map((r) => r.status)).toEqual(Array(ok.length).fill(200))
  })

  /**
   * A refresh once the outage is over. The pool may still hold an idle connection the cut killed
   * whose error has not arrived yet (seen on a busy host): that answers 503 and changes nothing, so
   * the caller tries again as `Retry-After` tells it to. A consumed token would answer 401, never 200.
   */
  async function refreshAfterOutage(token: string) {
    for (let attempt = 1; ; attempt++) {
      const res = await refreshRequest(token, outage)
      if (res.status !== 503 || attempt === 3) return res
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }

  it('answers each refresh of a cut batch 503 and consumes none of their tokens', async () => {
    const client = await createClient(outage.services.db, { name: 'Bank Mellat' })
    const body = { client_id: client.client_id, client_secret: client.client_secret }
    const sessions = await Promise.all(Array.from({ length: 20 }, () => outage.request('POST', '/api/sso/v1/auth/login', { body })))
    expect(sessions.map((s) => s.status)).toEqual(Array(20).fill(200))
    const release = await holdWrites('refresh_tokens')
    const inFlight = Promise.all(sessions.map((s) => refreshRequest(s.body.tokens.refresh, outage)))
    await cutWhileWaiting()
    await release()
    const results = await inFlight
    expect(results.filter((r) => r.status === 503).length).toBeGreaterThan(0)
    for (const [i, res] of results.entries()) {
      expect([200, 503]).toContain(res.status)
      // A 503 consumed nothing: the same token refreshes now; a 200's successor works.
      const token = res.status === 200 ? res.body.tokens.refresh : sessions[i]!.body.tokens.refresh
      if (res.status === 503) expect(res.body).toEqual(UNAVAILABLE)
      expect((await refreshAfterOutage(token)).status).toBe(200)
    }
  })
})
