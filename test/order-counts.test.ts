import { promises as fs } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

import { sql } from 'kysely'
import { FileMigrationProvider, Migrator } from 'kysely/migration'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { openDatabase } from '../src/db/database.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { createTestDatabase, onPostgres } from './helpers/database.ts'
import { eventually } from './helpers/eventually.ts'
import { ORDERS, placeOrder, usdBuy } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

// The unfiltered list's total comes from counters kept by triggers on `orders`; whatever writes
// the table, the total must equal the rows.

let server: TestServer
let admin: TestClient
beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  admin = await createTestClient(server, { roles: ['admin'] })
})
afterAll(async () => {
  await server?.close()
})

const listTotal = async (client: TestClient, query = '') => {
  const res = await server.request('GET', `${ORDERS}?limit=1${query}`, { token: client.token })
  expect(res.status).toBe(200)
  return res.body.total as number
}

const liveRows = async (tenantId?: string) => {
  let q = server.services.db
    .selectFrom('orders')
    .select(sql<number>`count(*)`.as('n'))
    .where('is_deleted', '=', false)
  if (tenantId) q = q.where('tenant_id', '=', tenantId)
  return (await q.executeTakeFirstOrThrow()).n
}

/** One multi-row INSERT … ON CONFLICT DO NOTHING, the shape of batched order creation. */
const insertBatch = (rows: { tenantId: string; clientOrderId: string | null }[]) =>
  sql`
    insert into orders (uid, user_id, tenant_id, client_order_id, symbol, side, type, quantity, price, status)
    select gen_random_uuid(), 'batch', t, c, 'USD-IRR', 'buy', 'limit', 1000, 1050000, 'open'
    from unnest(${rows.map((r) => r.tenantId)}::uuid[], ${rows.map((r) => r.clientOrderId)}::text[]) as b (t, c)
    on conflict do nothing`.execute(server.services.db)

describe('the unfiltered total', () => {
  it('equals the rows after 200 concurrent submissions, duplicate client_order_ids included, and reads stay consistent', async () => {
    const bank = await createTestClient(server)
    // 50 orders without an id, 150 under 100 ids: 50 replays.
    const bodies = [...Array.from({ length: 150 }, (_, i) => ({ ...usdBuy, client_order_id: `c-${i % 100}` })), ...Array(50).fill(usdBuy)]
    const reads: Promise<Awaited<ReturnType<TestServer['request']>>>[] = []
    const writes = bodies.map(async (body, i) => {
      if (i % 10 === 0) reads.push(server.request('GET', `${ORDERS}?limit=100`, { token: bank.token }))
      return placeOrder(server, bank.token, body)
    })
    const statuses = (await Promise.all(writes)).map((r) => r.status)
    expect(statuses.every((s) => s === 200 || s === 201)).toBe(true)
    expect(statuses.filter((s) => s === 201)).toHaveLength(150)
    expect(await liveRows(bank.tenantId)).toBe(150)
    expect(await listTotal(bank)).toBe(150)
    for (const read of await Promise.all(reads)) {
      expect(read.status).toBe(200)
      // Page and total come from one snapshot.
      expect(read.body.items).toHaveLength(Math.min(read.body.total, 100))
    }
  })

  it('counts only the rows a multi-row insert stored, per tenant, skipping ON CONFLICT DO NOTHING duplicates', async () => {
    const [a, b, c] = await Promise.all([createTestClient(server), createTestClient(server), createTestClient(server)])
    await insertBatch([{ tenantId: a.tenantId, clientOrderId: 'x-1' }])
    await insertBatch([
      { tenantId: a.tenantId, clientOrderId: 'x-1' }, // already stored
      { tenantId: a.tenantId, clientOrderId: 'x-2' },
      { tenantId: a.tenantId, clientOrderId: 'x-2' }, // twice in the batch
      { tenantId: b.tenantId, clientOrderId: 'x-1' }, // another tenant's id space
      { tenantId: b.tenantId, clientOrderId: null },
      { tenantId: b.tenantId, clientOrderId: null },
      { tenantId: c.tenantId, clientOrderId: 'x-9' },
    ])
    await insertBatch([{ tenantId: c.tenantId, clientOrderId: 'x-9' }]) // skipped entirely
    for (const [client, expected] of [
      [a, 2],
      [b, 3],
      [c, 1],
    ] as const) {
      expect(await liveRows(client.tenantId)).toBe(expected)
      expect(await listTotal(client)).toBe(expected)
    }
  })

  it('stays exact under concurrent multi-tenant batches listing their tenants in opposite orders, without deadlock', async () => {
    const tenants = await Promise.all(Array.from({ length: 4 }, () => createTestClient(server)))
    const batches = Array.from({ length: 40 }, (_, i) => {
      const order = i % 2 === 0 ? tenants : [...tenants].reverse()
      return order.flatMap((t, j) => [
        { tenantId: t.tenantId, clientOrderId: `b-${i % 30}-${j}` }, // ids 30..39 repeat 0..9: skipped
        { tenantId: t.tenantId, clientOrderId: null },
      ])
    })
    await Promise.all(batches.map((rows) => insertBatch(rows)))
    for (const t of tenants) {
      expect(await liveRows(t.tenantId)).toBe(70)
      expect(await listTotal(t)).toBe(70)
    }
  })

  it('follows soft deletes, undeletes, moves between tenants and hard deletes; cancels leave it alone', async () => {
    const [bank, other] = await Promise.all([createTestClient(server), createTestClient(server)])
    for (let i = 0; i < 6; i++) expect((await placeOrder(server, bank.token, usdBuy)).status).toBe(201)
    const uids = (await server.services.db.selectFrom('orders').select('uid').where('tenant_id', '=', bank.tenantId).orderBy('created_at').execute()).map(
      (r) => r.uid,
    )
    const db = server.services.db

    expect((await server.request('DELETE', `${ORDERS}/${uids[0]}`, { token: bank.token })).status).toBe(200)
    expect(await listTotal(bank)).toBe(6)

    await db.updateTable('orders').set({ is_deleted: true }).where('uid', 'in', uids.slice(0, 2)).execute()
    expect(await listTotal(bank)).toBe(4)
    const listed = await server.request('GET', `${ORDERS}?limit=100`, { token: bank.token })
    expect(listed.body.items.map((o: any) => o.uid)).toEqual(uids.slice(2))

    await db.updateTable('orders').set({ is_deleted: true }).where('uid', '=', uids[0]!).execute() // already deleted
    await db.updateTable('orders').set({ is_deleted: false }).where('uid', '=', uids[1]!).execute()
    expect(await listTotal(bank)).toBe(5)

    await db.updateTable('orders').set({ tenant_id: other.tenantId }).where('uid', 'in', uids.slice(4)).execute()
    expect([await listTotal(bank), await listTotal(other)]).toEqual([3, 2])

    await db.deleteFrom('orders').where('uid', 'in', uids.slice(3)).execute()
    expect([await listTotal(bank), await listTotal(other)]).toEqual([2, 0])
    expect(await liveRows(bank.tenantId)).toBe(2)
  })

  it('keeps filtered totals counting their matches', async () => {
    const bank = await createTestClient(server)
    await placeOrder(server, bank.token, usdBuy)
    await placeOrder(server, bank.token, { ...usdBuy, side: 'sell' })
    await server.services.db.updateTable('orders').set({ is_deleted: true }).where('tenant_id', '=', bank.tenantId).where('side', '=', 'sell').execute()
    expect(await listTotal(bank, '&side=buy')).toBe(1)
    expect(await listTotal(bank, '&side=sell')).toBe(0)
    expect(await listTotal(bank, '&created_at_from=2000-01-01T00:00:00Z')).toBe(1)
  })

  it("gives admins every tenant's live orders", async () => {
    expect(await listTotal(admin)).toBe(await liveRows())
  })

  it('drops to zero when the table is truncated', async () => {
    const bank = await createTestClient(server)
    await placeOrder(server, bank.token, usdBuy)
    await sql`truncate orders cascade`.execute(server.services.db)
    expect(await listTotal(bank)).toBe(0)
    expect(await listTotal(admin)).toBe(0)
    await placeOrder(server, bank.token, usdBuy)
    expect(await listTotal(bank)).toBe(1)
  })
})

describe.skipIf(!onPostgres)('two connections sharing a counter shard', () => {
  const SHARDS = 32
  const batchSql = `
    insert into orders (uid, user_id, tenant_id, symbol, side, type, quantity, price, status)
    select gen_random_uuid(), 'batch', t, 'USD-IRR', 'buy', 'limit', 1000, 1050000, 'open' from unnest($1::uuid[]) as b (t)`

  it("lock the tenants' counters in one order, so a batch waiting on another's counter holds none it needs", async () => {
    // Any 33 backends include two with the same pid modulo the shard count.
    const clients = await Promise.all(
      Array.from({ length: SHARDS + 1 }, async () => {
        const client = new pg.Client({ connectionString: server.database.databaseUrl })
        await client.connect()
        const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid')
        return { client, pid: rows[0]!.pid }
      }),
    )
    try {
      const x = clients.find((c) => clients.some((d) => d !== c && d.pid % SHARDS === c.pid % SHARDS))!
      const y = clients.find((d) => d !== x && d.pid % SHARDS === x.pid % SHARDS)!
      const [low, high] = (await Promise.all([createTestClient(server), createTestClient(server)])).map((c) => c.tenantId).sort()

      await x.client.query('begin')
      await x.client.query(batchSql, [[low]]) // x holds the shard's row of `low`
      const batch = y.client.query(batchSql, [[high, low]]).then(
        () => 'stored',
        (error: Error) => error.message,
      ) // rows listed high first
      await eventually(
        async () => {
          const { rows } = await x.client.query('select wait_event_type from pg_stat_activity where pid = $1', [y.pid])
          return rows[0]?.wait_event_type === 'Lock' ? true : undefined
        },
        10_000,
        20,
      )
      // Had y taken `high` first, this would wait for y while y waits for x: a deadlock.
      await x.client.query(batchSql, [[high]])
      await x.client.query('commit')
      expect(await batch).toBe('stored')
      const { rows } = await x.client.query('select tenant_id, sum(live)::int as live from order_counts where tenant_id = any($1) group by 1 order by 1', [
        [low, high],
      ])
      expect(rows).toEqual([
        { tenant_id: low, live: 2 },
        { tenant_id: high, live: 2 },
      ])
    } finally {
      await Promise.all(clients.map((c) => c.client.end()))
    }
  })
})

describe('the migration adding the counters', () => {
  it('counts the live orders already stored, and comes down cleanly', async () => {
    const database = await createTestDatabase()
    const handle = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, dbPoolSize: 2, statementTimeoutMs: 10_000 })
    try {
      const { db } = handle
      const migrator = new Migrator({
        db,
        provider: new FileMigrationProvider({
          fs,
          path,
          migrationFolder: fileURLToPath(new URL('../migrations', import.meta.url)),
          import: (file: string) => import(pathToFileURL(file).href),
        }),
      })
      const before = await migrator.migrateTo('2026-11-27T00-00_orders_list_index')
      if (before.error) throw before.error
      await seedDemoMarket(db)
      const [t1, t2] = ['6b0c7c4e-0d8e-4f5e-9f43-2b7a1d3c0001', '6b0c7c4e-0d8e-4f5e-9f43-2b7a1d3c0002']
      await sql`insert into tenants (id, name) values (${t1}, 'one'), (${t2}, 'two')`.execute(db)
      await sql`
        insert into orders (uid, user_id, tenant_id, symbol, side, type, quantity, price, status, is_deleted)
        select gen_random_uuid(), 'seed', case when g % 3 = 0 then ${t2}::uuid else ${t1}::uuid end, 'USD-IRR', 'buy', 'limit', 1000, 1050000, 'open', g % 7 = 0
        from generate_series(1, 100) g`.execute(db)

      await migrateToLatest(db)
      const counted = await sql<{ tenant_id: string; live: number }>`
        select tenant_id, sum(live)::int8 as live from order_counts group by tenant_id order by tenant_id`.execute(db)
      const actual = await sql<{ tenant_id: string; live: number }>`
        select tenant_id, count(*) as live from orders where not is_deleted group by tenant_id order by tenant_id`.execute(db)
      expect(counted.rows).toEqual(actual.rows)
      expect(counted.rows.map((r) => r.live)).toEqual([57, 29])

      const down = await migrator.migrateTo('2026-11-27T00-00_orders_list_index')
      if (down.error) throw down.error
      const { rows } = await sql<{ exists: boolean }>`select to_regclass('order_counts') is not null as exists`.execute(db)
      expect(rows[0]!.exists).toBe(false)
      await sql`insert into orders (uid, user_id, tenant_id, symbol, side, type, quantity, price, status)
        values (gen_random_uuid(), 'seed', ${t1}, 'USD-IRR', 'buy', 'limit', 1000, 1050000, 'open')`.execute(db)
    } finally {
      await handle.close()
      await database.drop()
    }
  })
})
