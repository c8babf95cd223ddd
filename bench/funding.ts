import type { Db } from '../src/db/database.ts'
import { transfer } from '../src/modules/exchange/accounts/accounts.ts'

// More than any bench run spends.
const BENCH_FUNDS = '1000000000000'

/** Deposits BENCH_FUNDS of every currency into a tenant's accounts. */
export async function fundTenant(db: Db, tenantId: string): Promise<void> {
  const currencies = await db.selectFrom('currencies').select('code').execute()
  for (const { code } of currencies)
    await transfer(db, { tenant_id: tenantId, currency: code, amount: BENCH_FUNDS, kind: 'deposit', reference: `bench-${tenantId}-${code}` })
}
