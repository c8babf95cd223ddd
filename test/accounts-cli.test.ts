import { randomUUID } from 'node:crypto'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { seedDemoMarket } from '../src/modules/exchange/symbols/seed.ts'
import { type OpenCli, openCli } from './helpers/cli.ts'
import { createTestDatabase, type TestDatabase } from './helpers/database.ts'

let database: TestDatabase
let open: OpenCli
beforeAll(async () => {
  database = await createTestDatabase()
  open = await openCli(database)
})
afterAll(async () => {
  await open?.close()
  await database?.drop()
})

// The commands run in this process on one open database (test/helpers/cli.ts).
const cli = (...args: string[]) => open.run(...args)

describe('account CLI', () => {
  it('deposits and withdraws (one JSON line each), refuses an overdraft with exit 1, sets fees, sums fees, checks', async () => {
    // What needs no CLI is done on the database directly.
    const tenant = randomUUID()
    await seedDemoMarket(open.db)
    await open.db.insertInto('tenants').values({ id: tenant, name: 'Funded bank' }).execute()
    // Seeding the demo market funds nobody.
    expect(await open.db.selectFrom('accounts').selectAll().execute()).toEqual([])
    const deposit = await cli('account', 'deposit', '--tenant', tenant, '--currency', 'usd', '--amount', '250.5', '--reference', 'wire-1')
    expect(deposit.stderr).toBe('')
    expect(deposit.code).toBe(0)
    expect(deposit.stdout.split('\n').filter(Boolean)).toHaveLength(1)
    expect(JSON.parse(deposit.stdout)).toMatchObject({
      tenant_id: tenant,
      currency: 'USD',
      amount: '250.50',
      balance_after: '250.50',
      kind: 'deposit',
      reference: 'wire-1',
    })
    const withdraw = await cli('account', 'withdraw', '--tenant', tenant, '--currency', 'USD', '--amount', '50', '--reference', 'out-1')
    expect(JSON.parse(withdraw.stdout)).toMatchObject({ amount: '-50.00', balance_after: '200.50', kind: 'withdrawal' })
    const overdraft = await cli('account', 'withdraw', '--tenant', tenant, '--currency', 'USD', '--amount', '300', '--reference', 'out-2')
    expect(overdraft.code).toBe(1)
    expect(overdraft.stdout).toBe('')
    expect(overdraft.stderr).toContain('insufficient balance: USD available 200.50, required 300.00')

    expect(JSON.parse((await cli('symbol', 'set-fees', 'BTC-USDT', '0.1', '0.25')).stdout)).toEqual({
      symbol: 'BTC-USDT',
      maker_fee_percent: '0.1',
      taker_fee_percent: '0.25',
    })

    // Fees collected (as the matching pass adds them), then the totals and the check.
    await open.db.insertInto('collected_fees').values({ currency: 'USDT', shard: 0, amount: '1.25' }).execute()
    await open.db.insertInto('collected_fees').values({ currency: 'USDT', shard: 3, amount: '0.5' }).execute()
    const fees = (await cli('account', 'fees')).stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
    expect(fees).toEqual([{ currency: 'USDT', amount: '1.75' }])
    // Those fees were paid by no one: the check names the currency whose money does not add up.
    const failed = await cli('account', 'check')
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('account check: 1 discrepancy')
    expect(failed.stderr).toContain('conservation: USDT: balances 0 + fees 1.75 != deposits 0 - withdrawals 0')
    await open.db.deleteFrom('collected_fees').execute()
    const check = await cli('account', 'check')
    expect(check.stderr).toBe('')
    expect(check.code).toBe(0)
    expect(JSON.parse(check.stdout)).toEqual({ status: 'ok', currencies: 1 })
  })
})
