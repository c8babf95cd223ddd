import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestClient, type TestClient } from './helpers/auth.ts'
import { withoutBackgroundPolls } from './helpers/background.ts'
import { onPostgres, postgresUrl } from './helpers/database.ts'
import { placeOrder, usdBuy } from './helpers/orders.ts'
import { startTestServer, type TestServer } from './helpers/server.ts'

const UNAVAILABLE = { message: 'The service is temporarily unavailable', error: 'service_unavailable', detail: 'The service is temporarily unavailable' }
const INTERNAL = { message: 'Internal server error', error: 'internal_error', detail: 'Internal server error' }

let server: TestServer
let bank: TestClient

beforeAll(async () => {
  server = await startTestServer()
  await seedDemoMarket(server.services.db)
  bank = await createTestClient(server)
})
afterAll(async () => {
  await server?.close()
})

const db = () => server.services.db
const place = (body: unknown, client = bank) => placeOrder(server, client.token, body)
const statements = () => server.services.database.queryCount()

async function storedWithPrefix(prefix: string) {
  return db().selectFrom('orders').selectAll().where('tenant_id', '=', bank.tenantId).where('client_order_id', 'like', `${prefix}%`).execute()
}

describe('orders matched in passes (group commit)', () => {
  it('stores and matches orders that arrive while an earlier pass is in flight with fewer statements than orders', () =>
    withoutBackgroundPolls(server.services, async () => {
      expect((await place(usdBuy)).status).toBe(201) // the market rules are read once, before counting
      const writes = server.services.matching
      const insert = writes.place.bind(writes)
      let submitted = 0
      writes.place = (order) => {
        submitted++
        return insert(order)
      }
      const ids = Array.from({ length: 50 }, (_, i) => `grouped-${i}`)
      const before = statements()
      let responses: Awaited<ReturnType<typeof place>>[]
      try {
        // The orders table held by another transaction keeps the first inserts waiting (on the
        // embedded database, the one connection), so every later order arrives while they are in flight.
        const pending = await db()
          .transaction()
          .execute(async (trx) => {
            await sql`lock table orders in exclusive mode`.execute(trx)
            const all = Promise.all(ids.map((id) => place({ ...usdBuy, client_order_id: id })))
            for (const started = Date.now(); submitted < ids.length && Date.now() - started < 5000;) await new Promise((r) => setTimeout(r, 5))
            return { all }
          })
        responses = await pending.all
      } finally {
        writes.place = insert
      }
      const used = statements() - before
      expect(responses.map((r) => r.status)).toEqual(ids.map(() => 201))
      expect(responses.map((r) => r.body.client_order_id)).toEqual(ids)
      expect(new Set(responses.map((r) => r.body.uid)).size).toBe(50)
      // The lock and a few passes of a few statements each; several statements per order without group commit.
      expect(used).toBeLessThan(ids.length / 2)
      const stored = await storedWithPrefix('grouped-')
      expect(stored).toHaveLength(50)
      // Each caller got its own row, as stored.
      const byUid = new Map(stored.map((o) => [o.uid, o]))
      for (const res of responses)
        expect(byUid.get(res.body.uid)).toMatchObject({ client_order_id: res.body.client_order_id, quantity: '1000', price: '1050000' })
    }))

  it('keeps decimals exact and each row its own values through the shared statement', async () => {
    const bodies = [
      { symbol: 'BTC-USDT', side: 'buy', type: 'limit', quantity: '0.000100', price: '64000.10', client_order_id: 'exact-1' },
      { symbol: 'ETH-USDT', side: 'sell', type: 'market', quantity: '12.5', client_order_id: 'exact-2' },
      { symbol: 'USD-IRR', side: 'sell', type: 'limit', quantity: '1000', price: '9990000', client_order_id: null },
    ]
    const responses = await Promise.all(bodies.map((b) => place(b)))
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201])
    expect(responses.map((r) => [r.body.symbol, r.body.side, r.body.type, r.body.quantity, r.body.price, r.body.status, r.body.client_order_id])).toEqual([
      ['BTC-USDT', 'buy', 'limit', '0.000100', '64000.10', 'open', 'exact-1'],
      ['ETH-USDT', 'sell', 'market', '12.5', null, 'cancelled', 'exact-2'],
      ['USD-IRR', 'sell', 'limit', '1000', '9990000', 'open', null],
    ])
  })

  it('answers duplicate client_order_ids sent together like one after the other: one 201, the same body 200, another body 409', async () => {
    const same = { ...usdBuy, client_order_id: 'together-1' }
    const other = { ...usdBuy, quantity: '2000', client_order_id: 'together-1' }
    const bodies = [same, same, other, same, { ...usdBuy, client_order_id: 'together-2' }, same, other]
    const before = statements()
    const responses = await Promise.all(bodies.map((b) => place(b)))
    const used = statements() - before
    const created = responses.filter((r) => r.status === 201 && r.body.client_order_id === 'together-1')
    expect(created).toHaveLength(1)
    const winner = created[0]!.body
    for (const [i, res] of responses.entries()) {
      if (bodies[i]!.client_order_id === 'together-2') expect(res.status).toBe(201)
      else if (res.body === winner) continue
      else if (bodies[i]!.quantity === winner.quantity) {
        expect(res.status).toBe(200)
        expect(res.body).toEqual(winner)
      } else {
        expect(res.status).toBe(409)
        expect(res.body).toEqual({
          message: `client_order_id together-1 was already used for a different order (${winner.uid})`,
          error: 'conflict',
          detail: `client_order_id together-1 was already used for a different order (${winner.uid})`,
        })
      }
    }
    expect(await storedWithPrefix('together-1')).toHaveLength(1)
    expect(used).toBeLessThan(bodies.length * 2)
  })

  describe('a row the database refuses', () => {
    beforeAll(async () => {
      // Stands in for any check or foreign-key violation the API's own validation does not foresee.
      await sql`alter table orders add constraint test_refuses_poison check (client_order_id is distinct from 'poison')`.execute(db())
    })
    afterAll(async () => {
      await sql`alter table orders drop constraint test_refuses_poison`.execute(db())
    })

    it('answers that order 500 and the orders of its pass 201: the pass runs again, each order alone', async () => {
      const bodies = Array.from({ length: 12 }, (_, i) => ({ ...usdBuy, client_order_id: i === 5 ? 'poison' : `beside-poison-${i}` }))
      const responses = await Promise.all(bodies.map((b) => place(b)))
      expect(responses.map((r) => r.status)).toEqual(bodies.map((b) => (b.client_order_id === 'poison' ? 500 : 201)))
      expect(responses[5]!.body).toEqual(INTERNAL)
      expect(await storedWithPrefix('beside-poison-')).toHaveLength(11)
      expect(await storedWithPrefix('poison')).toHaveLength(0)
    })
  })

  describe('market rules changed after the process cached them', () => {
    // Changes made in plain SQL: no `updated_at` bump, no CLI, and the catalog poll stopped, so the
    // process still holds the old rules when the order arrives.
    const change = (assignments: string) => sql.raw(`update symbols set ${assignments} where symbol = 'USD-IRR'`).execute(db())
    const cachedUsdIrr = async () => (await server.services.symbolsCache.markets()).get('USD-IRR')!

    async function underChangedRules(assignments: string, restore: string, fn: () => Promise<void>) {
      await withoutBackgroundPolls(server.services, async () => {
        expect((await place(usdBuy)).status).toBe(201)
        const cached = await cachedUsdIrr()
        await change(assignments)
        try {
          await fn()
          expect(await cachedUsdIrr()).toBe(cached) // the order was checked against stale rules first
        } finally {
          await change(restore)
        }
      })
    }

    it('refuses an order the new tick size rejects, with the same 422 as a fresh process', () =>
      underChangedRules('tick_size = 1000000', 'tick_size = 10', async () => {
        for (const clientOrderId of [undefined, 'tick-changed-1']) {
          const res = await place({ ...usdBuy, client_order_id: clientOrderId })
          expect(res.status).toBe(422)
          expect(res.body).toEqual({
            detail: [
              {
                type: 'value_error.number.not_multiple',
                loc: ['body', 'price'],
                msg: 'ensure this value is a multiple of 1000000',
                input: '1050000',
                ctx: { multiple_of: '1000000' },
              },
            ],
          })
        }
        expect(await storedWithPrefix('tick-changed-')).toHaveLength(0)
      }))

    it('refuses an order for a symbol deactivated or deleted meanwhile', async () => {
      await underChangedRules('is_active = false', 'is_active = true', async () => {
        const res = await place({ ...usdBuy, client_order_id: 'deactivated-1' })
        expect(res.status).toBe(422)
        expect(res.body.detail).toEqual([{ type: 'value_error.symbol', loc: ['body', 'symbol'], msg: 'symbol USD-IRR is not active', input: 'USD-IRR' }])
      })
      await underChangedRules('is_deleted = true', 'is_deleted = false', async () => {
        const res = await place({ ...usdBuy, client_order_id: 'deleted-1' })
        expect(res.status).toBe(422)
        expect(res.body.detail).toEqual([{ type: 'value_error.symbol', loc: ['body', 'symbol'], msg: 'unknown symbol USD-IRR', input: 'USD-IRR' }])
      })
      expect(await storedWithPrefix('deactivated-')).toHaveLength(0)
      expect(await storedWithPrefix('deleted-')).toHaveLength(0)
    })

    it('refuses a price outside a reference band set meanwhile, and a quantity under a raised minimum', async () => {
      await underChangedRules('reference_price = 2000000', 'reference_price = null', async () => {
        const res = await place(usdBuy)
        expect(res.status).toBe(422)
        expect(res.body.detail.map((d: { type: string; loc: unknown[] }) => [d.loc.join('.'), d.type])).toEqual([['body.price', 'value_error.number.not_ge']])
      })
      await underChangedRules('min_order_quantity = 5000', 'min_order_quantity = 100', async () => {
        const res = await place(usdBuy)
        expect(res.status).toBe(422)
        expect(res.body.detail.map((d: { type: string; loc: unknown[] }) => [d.loc.join('.'), d.type])).toEqual([
          ['body.quantity', 'value_error.number.not_ge'],
        ])
      })
    })

    it('refuses a quantity off the lots of a coarser quantity precision', () =>
      underChangedRules('quantity_precision = -4', 'quantity_precision = -1', async () => {
        const res = await place(usdBuy)
        expect(res.status).toBe(422)
        expect(res.body.detail).toEqual([
          {
            type: 'value_error.number.not_multiple',
            loc: ['body', 'quantity'],
            msg: 'ensure this value is a multiple of 10000',
            input: '1000',
            ctx: { multiple_of: '10000' },
          },
        ])
      }))

    it('refuses a price outside a fluctuation band narrowed meanwhile', async () => {
      await change('reference_price = 1000000')
      try {
        await server.services.symbolsCache.check() // the process holds the reference price, band ±5 %
        await underChangedRules('daily_fluctuation_price_limit_percent = 1', 'daily_fluctuation_price_limit_percent = 5', async () => {
          const res = await place(usdBuy)
          expect(res.status).toBe(422)
          expect(res.body.detail).toEqual([
            {
              type: 'value_error.number.not_le',
              loc: ['body', 'price'],
              msg: 'ensure this value is less than or equal to 1010000',
              input: '1050000',
              ctx: { limit_value: '1010000' },
            },
          ])
        })
      } finally {
        await change('reference_price = null')
      }
    })

    it('accepts, under the new rules, an order they still allow', () =>
      underChangedRules('tick_size = 50000', 'tick_size = 10', async () => {
        const res = await place({ ...usdBuy, client_order_id: 'tick-still-fine-1' })
        expect(res.status).toBe(201)
        expect(await storedWithPrefix('tick-still-fine-1')).toHaveLength(1)
      }))

    it('replays an order placed before the change when it is sent again', async () => {
      const original = await place({ ...usdBuy, client_order_id: 'before-change-1' })
      expect(original.status).toBe(201)
      await underChangedRules('tick_size = 1000000', 'tick_size = 10', async () => {
        const again = await place({ ...usdBuy, client_order_id: 'before-change-1' })
        expect(again.status).toBe(200)
        expect(again.body).toEqual(original.body)
      })
    })
  })
})

describe.skipIf(!onPostgres)('a database outage while orders are being inserted', () => {
  let faulty: TestServer
  let client: TestClient
  let admin: pg.Client
  let name: string
  beforeAll(async () => {
    faulty = await startTestServer()
    await seedDemoMarket(faulty.services.db)
    client = await createTestClient(faulty)
    name = new URL(faulty.database.databaseUrl!).pathname.slice(1)
    admin = new pg.Client({ connectionString: postgresUrl })
    await admin.connect()
  })
  afterAll(async () => {
    await admin?.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => {})
    await admin?.end()
    await faulty?.close()
  })

  it('answers each caller of a cut batch 503, and every order answered 201 is stored', async () => {
    const before = await Promise.all(Array.from({ length: 10 }, (_, i) => placeOrder(faulty, client.token, { ...usdBuy, client_order_id: `outage-${i}` })))
    expect(before.map((r) => r.status)).toEqual(before.map(() => 201))

    // Another session holds the orders table, so the next batches wait inside their statements.
    const locker = new pg.Client({ connectionString: faulty.database.databaseUrl })
    await locker.connect()
    let responses: Awaited<ReturnType<typeof placeOrder>>[]
    try {
      await locker.query('BEGIN')
      await locker.query('LOCK TABLE orders IN EXCLUSIVE MODE')
      const inFlight = Promise.all(Array.from({ length: 40 }, (_, i) => placeOrder(faulty, client.token, { ...usdBuy, client_order_id: `outage-${10 + i}` })))
      const waiting = async () =>
        Number(
          (
            await admin.query(
              // Waiting on a table lock: only the locker holds one, on orders (the statement's text
              // is cut at track_activity_query_size, so it cannot be matched by what it inserts).
              `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND wait_event = 'relation'`,
              [name],
            )
          ).rows[0].n,
        )
      for (let tries = 0; (await waiting()) === 0; tries++) {
        if (tries > 100) throw new Error('no insert ever waited for the lock')
        await new Promise((r) => setTimeout(r, 20))
      }
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`)
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> $2', [name, (locker as any).processID])
      responses = await inFlight
    } finally {
      await locker.query('ROLLBACK').catch(() => {})
      await locker.end().catch(() => {})
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`)
    }

    const statuses = responses.map((r) => r.status)
    expect(statuses.every((s) => s === 201 || s === 503)).toBe(true)
    expect(statuses).toContain(503)
    for (const res of responses.filter((r) => r.status === 503)) {
      expect(res.body).toEqual(UNAVAILABLE)
      expect(res.headers.get('retry-after')).toBe('5')
    }
    const acknowledged = [...before, ...responses].filter((r) => r.status === 201).map((r) => r.body.uid as string)
    const stored = await faulty.services.db.selectFrom('orders').select('uid').where('tenant_id', '=', client.tenantId).execute()
    // Every 201 is stored, and nothing cut before its commit is.
    expect(new Set(stored.map((o) => o.uid))).toEqual(new Set(acknowledged))
  })
})
