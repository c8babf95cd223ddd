import { randomUUID } from 'node:crypto'

import { decodeJwt } from 'jose'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createClient } from '../src/modules/auth/clients/clients.ts'
import { timestampAt } from '../src/modules/auth/sessions/session-tokens.ts'
import { tokenSha256 } from '../src/modules/auth/tokens/tokens.ts'
import { onPostgres } from './helpers/database.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

interface PlanNode {
  'Node Type': string
  'Index Name'?: string
  'Relation Name'?: string
  Plans?: PlanNode[]
}
const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)]

// auto_explain is how the plan of a statement inside a function can be seen; PGlite has none.
describe.skipIf(!onPostgres)('the refresh-token rotation plan', () => {
  let server: TestServer
  let connection: pg.Client
  const plans: PlanNode[][] = []

  beforeAll(async () => {
    server = await startTestServer()
    connection = new pg.Client({ connectionString: server.database.databaseUrl })
    await connection.connect()
    connection.on('notice', (notice) => {
      const text = notice.message ?? ''
      const start = text.indexOf('{')
      if (start < 0) return
      const logged = JSON.parse(text.slice(start)) as { 'Query Text': string; Plan: PlanNode }
      if (logged['Query Text'].includes('with input as')) plans.push(planNodes(logged.Plan))
    })
    for (const setting of [
      `load 'auto_explain'`,
      'set auto_explain.log_min_duration = 0',
      'set auto_explain.log_nested_statements = on',
      'set auto_explain.log_format = json',
      'set auto_explain.log_level = notice',
      'set client_min_messages = notice',
    ])
      await connection.query(setting)
  })
  afterAll(async () => {
    await connection?.end()
    await server?.close()
  })

  /** Rotates one freshly issued refresh token on `connection`, as `rotateRefreshTokens` does. */
  async function rotateOne(bank: { client_id: string; client_secret: string }) {
    const res = await server.request('POST', '/api/sso/v1/auth/login', { body: bank })
    expect(res.status).toBe(200)
    const token: string = res.body.tokens.refresh
    const claims = decodeJwt(token) as { jti: string; session_id: string; sub: string; tenant_id: string }
    const { rows } = await connection.query(
      `select * from rotate_refresh_tokens($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::boolean[], $7::uuid[], $8::text[], $9::timestamp(6)[], $10::integer)`,
      [
        [claims.jti],
        [claims.session_id],
        [claims.sub],
        [claims.tenant_id],
        [tokenSha256(token)],
        [false],
        [randomUUID()],
        ['0'.repeat(64)],
        [timestampAt(Math.floor(Date.now() / 1000) + 3600)],
        86400,
      ],
    )
    return rows
  }

  it('is planned once per connection while the tables are nearly empty, and still reaches every row by primary key after they grow', async () => {
    const db = server.services.db
    const bank = await createClient(db, { name: 'Bank Sepah' })
    const credentials = { client_id: bank.client_id, client_secret: bank.client_secret }
    expect(await rotateOne(credentials)).toHaveLength(1)

    // Thousands of sessions (none revoked) and used tokens, and no statistics of them: the shape
    // in which a plan made on the empty tables picked sequential scans or the revoked-sessions index.
    const client = await db.selectFrom('clients').select(['id', 'tenant_id']).where('id', '=', bank.client_id).executeTakeFirstOrThrow()
    await connection.query(
      `with s as (
         insert into sessions (id, client_id, tenant_id, expires_at)
         select gen_random_uuid(), $1, $2, timezone('utc', now()) + interval '1 day' from generate_series(1, 5000) returning id
       )
       insert into refresh_tokens (jti, session_id, client_id, expires_at, used_at)
       select gen_random_uuid(), s.id, $1, timezone('utc', now()) + interval '1 day', timezone('utc', now()) from s, generate_series(1, 4)`,
      [client.id, client.tenant_id],
    )
    expect(await rotateOne(credentials)).toHaveLength(1)

    expect(plans).toHaveLength(2)
    for (const nodes of plans) {
      expect(nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'])).toEqual([])
      const indexes = new Set(nodes.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : [])))
      expect([...indexes].sort()).toEqual(['clients_pkey', 'refresh_tokens_pkey', 'sessions_pkey'])
    }
  })
})
