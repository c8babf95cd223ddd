import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { READ_ONLY_COMMANDS } from '../src/app/cli-audit.ts'
import { failure, runCommand, USAGE } from '../src/app/cli-commands.ts'
import { AuditTrail } from '../src/modules/audit/audit-trail.ts'
import { digestSecret } from '../src/modules/auth/clients/client-secrets.ts'
import { tokenSha256 } from '../src/modules/auth/tokens/tokens.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { ROOT } from './helpers/process.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let admin: TestClient
let bank: TestClient

beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  admin = await createTestClient(server, { roles: ['admin'], funded: false })
  bank = await createTestClient(server, { funded: false })
})
afterAll(() => server?.close())

/** A CLI command in this process on the server's database, as the admin channel runs it. */
async function cli(...args: string[]) {
  let stdout = ''
  try {
    await runCommand(server.config, server.services.db, args, (text) => void (stdout += text))
    return { code: 0, stdout, stderr: '' }
  } catch (error) {
    return { stdout, ...failure(error) }
  }
}
const lines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as any)

/** Every record, oldest first, after writing what is pending (folds included). */
async function allRecords(): Promise<any[]> {
  await server.services.audit.flush()
  const { rows } = await sql<{ actor: unknown; details: unknown }>`select * from audit_records order by seq`.execute(server.services.db)
  return rows
}
const audit = (query: string, token = admin.token) => server.request('GET', `/api/admin/v1/audit${query}`, { token })
const login = (clientId: string, secret: string, headers: Record<string, string> = {}) =>
  server.request('POST', '/api/sso/v1/auth/login', { body: { client_id: clientId, client_secret: secret }, headers })

describe('operator commands', () => {
  it('records each changing command with the CLI as actor, its target and outcome; listings leave none', async () => {
    const created = lines((await cli('client', 'create', '--name', 'Audited bank')).stdout)[0]
    expect((await cli('client', 'rotate-secret', created.client_id)).code).toBe(0)
    expect((await cli('client', 'set-allowed-ips', created.client_id, '10.0.0.0/8')).code).toBe(0)
    expect((await cli('client', 'revoke-sessions', created.client_id)).code).toBe(0)
    expect((await cli('client', 'deactivate', created.client_id)).code).toBe(0)
    expect((await cli('symbol', 'set-fees', 'BTC-USDT', '0.1', '0.2')).code).toBe(0)
    expect((await cli('client', 'deactivate', '00000000-0000-4000-8000-000000000000')).code).toBe(1)
    const before = (await allRecords()).length
    expect((await cli('client', 'list')).code).toBe(0)
    expect((await cli('audit', 'verify')).code).toBe(0)
    expect(await allRecords()).toHaveLength(before)

    const listed = lines((await cli('audit', 'list', '--target-id', created.client_id)).stdout)
    expect(listed.map((r) => [r.action, r.outcome, r.actor, r.target])).toEqual([
      ['client.create', 'ok', { cli: true }, { type: 'client', id: created.client_id }],
      ['client.rotate_secret', 'ok', { cli: true }, { type: 'client', id: created.client_id }],
      ['client.set_allowed_ips', 'ok', { cli: true }, { type: 'client', id: created.client_id }],
      ['client.revoke_sessions', 'ok', { cli: true }, { type: 'client', id: created.client_id }],
      ['client.deactivate', 'ok', { cli: true }, { type: 'client', id: created.client_id }],
    ])
    expect(listed[2].details).toEqual({ arguments: [created.client_id, '10.0.0.0/8'], flags: {} })
    const missing = lines((await cli('audit', 'list', '--target-id', '00000000-0000-4000-8000-000000000000')).stdout)
    expect(missing.map((r) => [r.action, r.outcome, r.details.error])).toEqual([
      ['client.deactivate', 'failed', 'Client 00000000-0000-4000-8000-000000000000 does not exist'],
    ])
    const fees = lines((await cli('audit', 'list', '--action', 'symbol.set_fees')).stdout)
    expect(fees.at(-1)).toMatchObject({ outcome: 'ok', target: { type: 'symbol', id: 'BTC-USDT' }, ip: null })
  })

  it('records every command of the usage that is not declared read-only: a new command cannot skip the trail', async () => {
    const commands = [...USAGE.matchAll(/^ {2}([a-z]+) ([a-z-]+)\b/gm)].map((m) => `${m[1]} ${m[2]}`)
    expect(commands.length).toBeGreaterThan(15)
    for (const command of commands) {
      if (READ_ONLY_COMMANDS.has(command)) continue
      const action = command.replace(' ', '.').replace(/-/g, '_')
      const before = Number(
        (
          await server.services.db
            .selectFrom('audit_records')
            .select(sql<string>`count(*)`.as('n'))
            .where('action', '=', action)
            .executeTakeFirstOrThrow()
        ).n,
      )
      // Without its arguments: refused (recorded `failed`) or, for those that take none, done.
      await cli(...command.split(' '))
      const after = Number(
        (
          await server.services.db
            .selectFrom('audit_records')
            .select(sql<string>`count(*)`.as('n'))
            .where('action', '=', action)
            .executeTakeFirstOrThrow()
        ).n,
      )
      expect({ command, recorded: after - before }).toEqual({ command, recorded: 1 })
    }
  })

  it('refuses non-admins in one place only, the audited gate (src/modules/audit/admin-operations.ts)', () => {
    const files: string[] = []
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name)
        if (statSync(file).isDirectory()) walk(file)
        else if (file.endsWith('.ts') && !file.endsWith('.test.ts')) files.push(file)
      }
    }
    walk(path.join(ROOT, 'src'))
    const gates = files.filter((file) => /requires the admin role/.test(readFileSync(file, 'utf8')))
    expect(gates.map((file) => path.relative(ROOT, file))).toEqual(['src/modules/audit/admin-operations.ts'])
  })
})

describe('the audit chain', () => {
  it('verifies, refuses edits by the service, and names the first record edited behind its back', async () => {
    for (const taker of ['0.3', '0.4', '0.5']) await cli('symbol', 'set-fees', 'BTC-USDT', '0.1', taker)
    const ok = await cli('audit', 'verify')
    expect(ok.stderr).toBe('')
    expect(ok.code).toBe(0)
    const records = await allRecords()
    expect(lines(ok.stdout)).toEqual([{ status: 'ok', records: records.length }])
    const { db } = server.services
    await expect(sql`update audit_records set outcome = 'ok' where seq = 1`.execute(db)).rejects.toThrow(/append-only/)
    await expect(sql`delete from audit_records where seq = 1`.execute(db)).rejects.toThrow(/append-only/)

    const victim = records[2]
    await sql`alter table audit_records disable trigger audit_records_append_only`.execute(db)
    try {
      await sql`update audit_records set details = ${JSON.stringify({ forged: true })}::jsonb where uid = ${victim.uid}`.execute(db)
      const bad = await cli('audit', 'verify')
      expect(bad.code).toBe(1)
      expect(bad.stdout).toBe('')
      expect(bad.stderr).toBe(`audit verify: record ${victim.uid} is bad: its hash does not match its content (2 records before it are intact)\n`)
      await sql`update audit_records set details = ${JSON.stringify(victim.details)}::jsonb where uid = ${victim.uid}`.execute(db)
      expect((await cli('audit', 'verify')).code).toBe(0)
      // The last record removed: the head still names it.
      const last = (await allRecords()).at(-1)
      await sql`delete from audit_records where uid = ${last.uid}`.execute(db)
      expect((await cli('audit', 'verify')).stderr).toMatch(
        /^audit verify: the chain is bad: the chain's head names record \d+, but the last record is \d+: records were removed/,
      )
    } finally {
      await sql`alter table audit_records enable trigger audit_records_append_only`.execute(db)
    }
  })
})

describe('appends', () => {
  it("chain a batch in one statement after the process's own last append, and in two after another writer", async () => {
    // The trail's own statements: the server's count also holds its background sweeps (gtd expiry,
    // cancel deadlines), one of which now and then fell inside a counted append.
    let sent = 0
    const db = server.services.db.withPlugin({
      transformQuery: ({ node }) => {
        sent++
        return node
      },
      transformResult: async ({ result }) => result,
    })
    const trail = new AuditTrail(db, { warn: () => {} })
    const entry = (n: number) => ({ action: 'test.append', actor: { cli: true as const }, target: { type: 'test', id: String(n) }, outcome: 'ok' as const })
    const statements = async (append: () => Promise<unknown>) => {
      const before = sent
      await append()
      return sent - before
    }
    // The first append of a process reads the head under its lock.
    await trail.record(entry(1))
    expect(await statements(() => trail.record(entry(2)))).toBe(1)
    expect(await statements(() => trail.record(entry(3)))).toBe(1)
    // The CLI (another writer) moves the head: the next append misses once, then chains onto it.
    expect((await cli('symbol', 'set-fees', 'BTC-USDT', '0.1', '0.2')).code).toBe(0)
    expect(await statements(() => trail.record(entry(4)))).toBe(2)
    expect(await statements(() => trail.record(entry(5)))).toBe(1)
    // Records behind answers (logins) wait for each other: twenty in one statement.
    expect(
      await statements(() => {
        for (let n = 6; n < 26; n++) trail.recordBehind(entry(n))
        return trail.flush()
      }),
    ).toBe(1)
    const records = await allRecords()
    const order = records.filter((r) => r.action === 'test.append' || r.action === 'symbol.set_fees').slice(-26)
    expect(order.map((r) => (r.action === 'test.append' ? r.target_id : 'cli'))).toEqual([
      '1',
      '2',
      '3',
      'cli',
      ...Array.from({ length: 22 }, (_, i) => String(i + 4)),
    ])
    // Linked in that order, and the head names the last (a test above breaks the chain before them on purpose).
    expect(order.slice(1).map((r) => [r.prev_hash, Number(r.seq)])).toEqual(order.slice(0, -1).map((r) => [r.hash, Number(r.seq) + 1]))
    const head = (await sql<{ seq: string; hash: string }>`select seq::text as seq, hash from audit_chain`.execute(server.services.db)).rows
    expect(head).toEqual([{ seq: String(order.at(-1).seq), hash: order.at(-1).hash }])
  })
})

describe('logins and refreshes', () => {
  it('records a login with its address and request id, and folds failures per client, address and minute', async () => {
    const ok = await login(bank.clientId, bank.clientSecret)
    expect(ok.status).toBe(200)
    const requestId = ok.headers.get('x-request-id')
    const fixed = Date.parse('2026-12-10T10:00:30Z')
    server.services.audit.now = () => fixed
    try {
      for (let i = 0; i < 3; i++) expect((await login(bank.clientId, 'wrong')).status).toBe(401)
      const failed = await server.graphql('mutation { login(clientId: "' + bank.clientId + '", clientSecret: "wrong") { expiresIn } }')
      expect(failed.errors?.[0]?.extensions.code).toBe('UNAUTHENTICATED')
      expect((await login('not-a-client', 'wrong')).status).toBe(401)
    } finally {
      server.services.audit.now = () => Date.now()
    }
    await server.services.audit.flush()
    const logins = await audit(`?action=auth.login&actor_client_id=${bank.clientId}`)
    expect(logins.status).toBe(200)
    expect(logins.body.items.at(-1)).toMatchObject({
      outcome: 'ok',
      ip: '127.0.0.1',
      request_id: requestId,
      actor: { client_id: bank.clientId, tenant_id: bank.tenantId },
    })
    const failures = (await audit(`?action=auth.login_failed&target_id=${bank.clientId}`)).body.items
    expect(failures).toHaveLength(1)
    expect(failures[0]).toMatchObject({
      outcome: 'failed',
      ip: '127.0.0.1',
      actor: { client_id: bank.clientId, tenant_id: bank.tenantId },
      details: { count: 4, first_at: '2026-12-10T10:00:30.000Z', last_at: '2026-12-10T10:00:30.000Z' },
    })
    const nobody = (await audit('?action=auth.login_failed')).body.items.filter((r: any) => r.actor.client_id === null)
    expect(nobody.map((r: any) => r.details.count)).toEqual([1])
  })

  it('records a refresh token presented twice', async () => {
    const first = await login(bank.clientId, bank.clientSecret)
    const token = first.body.tokens.refresh
    expect((await server.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: token } })).status).toBe(200)
    expect((await server.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: token } })).status).toBe(401)
    const reused = (await audit(`?action=auth.refresh_reused&actor_client_id=${bank.clientId}`)).body.items
    expect(reused).toHaveLength(1)
    expect(reused[0]).toMatchObject({ outcome: 'denied', target: { type: 'session', id: first.body.session_id }, details: { session_revoked: false } })
  })
})

describe('GET /api/admin/v1/audit and auditRecords', () => {
  it('answers admins a filtered list envelope, the same records on both faces', async () => {
    const res = await audit('?action=client.create&limit=2')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['heads', 'items', 'total', 'offset', 'limit'])
    expect(res.body.heads.request_id).toEqual({ en: 'Request ID' })
    expect(res.body.limit).toBe(2)
    expect(res.body.items.every((r: any) => r.action === 'client.create')).toBe(true)
    const gql = await server.graphql(
      `query { auditRecords(filter: { action: "client.create" }, limit: 2) { total items { uid action outcome actor target { type id } hash createdAt } } }`,
      undefined,
      { token: admin.token },
    )
    expect(gql.errors).toBeUndefined()
    const data = gql.data as any
    expect(data.auditRecords.total).toBe(res.body.total)
    expect(data.auditRecords.items).toEqual(
      res.body.items.map((r: any) => ({
        uid: r.uid,
        action: r.action,
        outcome: r.outcome,
        actor: r.actor,
        target: r.target,
        hash: r.hash,
        createdAt: r.created_at,
      })),
    )
    const bad = await audit('?outcome=maybe&actor_client_id=x')
    expect(bad.status).toBe(422)
    expect(bad.body.detail.map((d: any) => d.loc)).toEqual([
      ['query', 'actor_client_id'],
      ['query', 'outcome'],
    ])
  })

  it('refuses non-admins and admins without audit:read with 403 on both faces, and records each refusal', async () => {
    const refused = await audit('', bank.token)
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({ message: 'Access denied: requires audit:read', error: 'permission_denied', detail: 'Access denied: requires audit:read' })
    const narrow = await createTestClient(server, { roles: ['admin'], scopes: ['accounts:read'], funded: false })
    const narrowRes = await audit('', narrow.token)
    expect(narrowRes.body).toEqual({ message: 'Access denied: requires audit:read', error: 'permission_denied', detail: 'Access denied: requires audit:read' })
    const pretender = await createTestClient(server, { scopes: ['audit:read'], funded: false })
    expect((await audit('', pretender.token)).body).toEqual({
      message: 'Access denied: requires the admin role',
      error: 'permission_denied',
      detail: 'Access denied: requires the admin role',
    })
    const gql = await server.graphql('query { auditRecords { total } }', undefined, { token: pretender.token })
    expect(gql.errors?.map((e) => [e.message, e.extensions.code])).toEqual([['Access denied: requires the admin role', 'FORBIDDEN']])
    const denied = (await audit('?action=audit.list&outcome=denied')).body.items
    expect(denied.map((r: any) => [r.actor.client_id, r.details.reason])).toEqual([
      [bank.clientId, 'Access denied: requires audit:read'],
      [narrow.clientId, 'Access denied: requires audit:read'],
      [pretender.clientId, 'Access denied: requires the admin role'],
      [pretender.clientId, 'Access denied: requires the admin role'],
    ])
  })

  it('records admin transfers through the API, and refusals of them', async () => {
    const body = { tenant_id: bank.tenantId, currency: 'USD', amount: '10.00', kind: 'deposit', reference: 'audit-1' }
    expect((await server.request('POST', '/api/exchange/v1/transfers', { body, token: admin.token })).status).toBe(201)
    const writer = await createTestClient(server, { scopes: ['accounts:write'], funded: false })
    expect((await server.request('POST', '/api/exchange/v1/transfers', { body, token: writer.token })).status).toBe(403)
    const records = (await audit('?action=account.transfer')).body.items
    expect(records.map((r: any) => [r.outcome, r.actor.client_id, r.target])).toEqual([
      ['ok', admin.clientId, { type: 'tenant', id: bank.tenantId }],
      ['denied', writer.clientId, null],
    ])
    expect(records[0].details).toMatchObject({ kind: 'deposit', currency: 'USD', reference: 'audit-1', created: true })
  })
})

describe('secrets', () => {
  it('never appear in a record: secrets, tokens and their digests', async () => {
    const seen: string[] = [admin.clientSecret, admin.token, bank.clientSecret, bank.token]
    for (let i = 0; i < 2; i++) {
      const created = lines((await cli('client', 'create', '--name', `Secret bank ${i}`)).stdout)[0]
      seen.push(created.client_secret)
      const first = await login(created.client_id, created.client_secret)
      seen.push(first.body.tokens.access, first.body.tokens.refresh)
      const refreshed = await server.request('POST', '/api/sso/v1/auth/refresh', { body: { refresh_token: first.body.tokens.refresh } })
      seen.push(refreshed.body.tokens.access, refreshed.body.tokens.refresh)
      const rotated = lines((await cli('client', 'rotate-secret', created.client_id)).stdout)[0]
      seen.push(rotated.client_secret)
      expect((await login(created.client_id, created.client_secret)).status).toBe(401)
      seen.push(lines((await cli('client', 'rotate-secret', created.client_id)).stdout)[0].client_secret)
    }
    const text = JSON.stringify(await allRecords())
    const needles = seen.flatMap((value) => [value, digestSecret(value), tokenSha256(value), ...value.split('.').filter((part) => part.length > 20)])
    expect(needles.length).toBeGreaterThan(40)
    for (const needle of needles) expect(text.includes(needle), needle.slice(0, 12)).toBe(false)
  })
})
