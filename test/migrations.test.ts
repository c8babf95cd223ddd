import { randomUUID } from 'node:crypto'
import { promises as fs, readdirSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import { type Kysely, sql } from 'kysely'
import { FileMigrationProvider, Migrator } from 'kysely/migration'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type DatabaseHandle, openDatabase } from '../src/db/database.ts'
import { migrateToLatest } from '../src/db/migrate.ts'
import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { createTestDatabase, type TestDatabase } from './helpers/database.ts'
import { ROOT } from './helpers/process.ts'

// Migrations that change rows already stored: each test takes the database back to before the
// migration, stores what it must handle, and migrates to the latest again.
let database: TestDatabase
let handle: DatabaseHandle
beforeAll(async () => {
  database = await createTestDatabase()
  handle = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, dbPoolSize: 1, statementTimeoutMs: 5000 })
})
afterAll(async () => {
  await handle?.close()
  await database?.drop()
})

const MIGRATIONS = path.join(ROOT, 'migrations')
const migrator = () =>
  new Migrator({
    db: handle.db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATIONS, import: (file: string) => import(pathToFileURL(file).href) }),
  })
/** The migration that comes before `name`. */
const before = (name: string) => {
  const names = readdirSync(MIGRATIONS)
    .map((file) => file.replace(/\.ts$/, ''))
    .sort()
  return names[names.indexOf(name) - 1]!
}

describe('the accounts migration', () => {
  it('grants accounts:read to clients holding the old default scopes (admins accounts:write too), and no one else', async () => {
    const { db } = handle
    const before = await migrator().migrateTo('2026-12-03T00-00_events')
    expect(before.error).toBeUndefined()
    const tenant = randomUUID()
    await db.insertInto('tenants').values({ id: tenant, name: 'Old bank' }).execute()
    const old = ['users:write', 'symbols:read', 'orders:read', 'orders:write', 'users:read']
    const clients = {
      bank: { roles: ['client'], scopes: old },
      admin: { roles: ['admin'], scopes: old },
      narrow: { roles: ['client'], scopes: ['symbols:read'] },
      wider: { roles: ['client'], scopes: [...old, 'orders:*'] },
    }
    const ids = Object.fromEntries(Object.keys(clients).map((name) => [name, randomUUID()]))
    for (const [name, { roles, scopes }] of Object.entries(clients)) {
      await db.insertInto('clients').values({ id: ids[name]!, tenant_id: tenant, name, secret_digest: 'x', roles, scopes }).execute()
    }
    await migrateToLatest(db)
    const rows = await db.selectFrom('clients').select(['id', 'scopes']).execute()
    const scopesOf = (name: string) => rows.find((r) => r.id === ids[name])!.scopes
    expect(scopesOf('bank')).toEqual([...old, 'accounts:read'])
    expect(scopesOf('admin')).toEqual([...old, 'accounts:read', 'accounts:write', 'audit:read'])
    expect(scopesOf('narrow')).toEqual(['symbols:read'])
    expect(scopesOf('wider')).toEqual([...old, 'orders:*'])
  })
})

describe('the order status migration', () => {
  it('leaves `rejected` out of the statuses, and makes a stored one what an order ending unfilled is', async () => {
    const { db } = handle
    // Rows of the schema before the migration, which the application's types no longer describe.
    const old = db as unknown as Kysely<any>
    await seedDemoMarket(db)
    const down = await migrator().migrateTo(before('2026-12-07T00-00_order_status_without_rejected'))
    expect(down.error).toBeUndefined()
    const tenant = randomUUID()
    await db.insertInto('tenants').values({ id: tenant, name: 'Old bank' }).execute()
    const order = (status: string) => ({
      uid: randomUUID(),
      user_id: 'trader',
      tenant_id: tenant,
      symbol: 'BTC-USDT',
      side: 'buy',
      type: 'limit',
      quantity: '1',
      price: '100',
      status,
    })
    const rejected = order('rejected')
    const open = order('open')
    await old.insertInto('orders').values([rejected, open]).execute()

    await migrateToLatest(db)
    const rows = await db.selectFrom('orders').select(['uid', 'status', 'cancel_reason']).where('tenant_id', '=', tenant).execute()
    expect(rows.find((r) => r.uid === rejected.uid)).toEqual({ uid: rejected.uid, status: 'cancelled', cancel_reason: 'unfilled' })
    expect(rows.find((r) => r.uid === open.uid)).toEqual({ uid: open.uid, status: 'open', cancel_reason: null })
    await expect(old.insertInto('orders').values(order('rejected')).execute()).rejects.toThrow(/orders_status_check/)
  })
})

describe('the fill fees migration', () => {
  it("gives each stored fill its fee from the ledger (the negated `fee` entries of its order and trade), in the symbol's quote", async () => {
    const { db } = handle
    const old = db as unknown as Kysely<any>
    await seedDemoMarket(db)
    const down = await migrator().migrateTo(before('2026-12-08T00-00_fill_fees'))
    expect(down.error).toBeUndefined()
    const tenant = randomUUID()
    await old.insertInto('tenants').values({ id: tenant, name: 'Old bank' }).execute()
    await old.insertInto('accounts').values({ tenant_id: tenant, currency: 'USDT', balance: '1000' }).execute()
    const order = (side: string) => ({
      uid: randomUUID(),
      user_id: 'trader',
      tenant_id: tenant,
      symbol: 'BTC-USDT',
      side,
      type: 'limit',
      quantity: '1',
      price: '100',
      status: 'open',
    })
    const [buy, sell] = [order('buy'), order('sell')]
    await old.insertInto('orders').values([buy, sell]).execute()
    // Sequences of their own: the earlier tests may have left trades on this symbol.
    const sequence = 1_000_000 + Math.floor(Math.random() * 1_000_000)
    const trade = (n: number) => ({
      uid: randomUUID(),
      symbol: 'BTC-USDT',
      price: '100',
      quantity: '0.5',
      taker_side: 'buy',
      sequence: sequence + n,
      maker_order_uid: sell.uid,
      taker_order_uid: buy.uid,
    })
    const [first, second] = [trade(0), trade(1)]
    await old.insertInto('trades').values([first, second]).execute()
    const fill = (o: typeof buy, t: typeof first, role: string) => ({
      uid: randomUUID(),
      order_uid: o.uid,
      trade_uid: t.uid,
      tenant_id: tenant,
      symbol: 'BTC-USDT',
      side: o.side,
      role,
      price: '100',
      quantity: '0.5',
    })
    const fills = {
      takerFirst: fill(buy, first, 'taker'),
      takerSecond: fill(buy, second, 'taker'),
      makerFirst: fill(sell, first, 'maker'),
    }
    await old.insertInto('fills').values(Object.values(fills)).execute()
    // The taker paid a fee on each trade (two entries on the second); its `trade` entries are not fees;
    // the maker paid none (no entry).
    let balance = 1000
    const entry = (o: typeof buy, t: typeof first, kind: string, amount: string) => ({
      uid: randomUUID(),
      tenant_id: tenant,
      currency: 'USDT',
      amount,
      balance_after: String((balance += Number(amount))),
      kind,
      order_uid: o.uid,
      trade_uid: t.uid,
    })
    await old
      .insertInto('ledger_entries')
      .values([
        entry(buy, first, 'trade', '-50'),
        entry(buy, first, 'fee', '-0.05'),
        entry(buy, second, 'trade', '-50'),
        entry(buy, second, 'fee', '-0.03'),
        entry(buy, second, 'fee', '-0.0125'),
      ])
      .execute()

    await migrateToLatest(db)
    const rows = await old
      .selectFrom('fills')
      .select(['uid', sql<string>`fee::text`.as('fee'), 'fee_currency', 'role'])
      .where('tenant_id', '=', tenant)
      .execute()
    const of = (f: { uid: string }) => rows.find((r) => r.uid === f.uid)
    expect(of(fills.takerFirst)).toEqual({ uid: fills.takerFirst.uid, fee: '0.05', fee_currency: 'USDT', role: 'taker' })
    expect(of(fills.takerSecond)).toEqual({ uid: fills.takerSecond.uid, fee: '0.0425', fee_currency: 'USDT', role: 'taker' })
    expect(of(fills.makerFirst)).toEqual({ uid: fills.makerFirst.uid, fee: '0', fee_currency: 'USDT', role: 'maker' })
    // From now on the matching pass writes both: a fill without them is refused.
    await expect(
      old
        .insertInto('fills')
        .values(fill(sell, second, 'maker'))
        .execute(),
    ).rejects.toThrow(/fee/)
  })
})
