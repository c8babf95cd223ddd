import { sql } from 'kysely'

import type { Db } from '../../src/db/database.ts'

/** More than any test order costs: every order a test places is paid for (docs/accounts.md). */
export const TEST_FUNDS = '1000000000000000000000000'

/**
 * Deposits TEST_FUNDS into the accounts of these tenants (all tenants when undefined) in these
 * currencies (all when undefined), as operators' deposits with references, so `account check`
 * stays clean. For tests of trading, not of accounts: no balance events are written.
 */
export async function fundTenants(db: Db, tenants?: readonly string[], currencies?: readonly string[]): Promise<void> {
  await sql`
    with target as (
      select t.id as tenant_id, c.code as currency from tenants t cross join currencies c
      where (${tenants ?? null}::uuid[] is null or t.id = any(${tenants ?? null}::uuid[]))
        and (${currencies ?? null}::text[] is null or c.code = any(${currencies ?? null}::text[]))
    ), funded as (
      insert into accounts as a (tenant_id, currency, balance)
      select tenant_id, currency, ${TEST_FUNDS}::numeric from target order by tenant_id, currency
      on conflict (tenant_id, currency) do update set balance = a.balance + excluded.balance
      returning a.tenant_id, a.currency, a.balance
    )
    insert into ledger_entries (uid, tenant_id, currency, amount, balance_after, kind, reference)
    select gen_random_uuid(), tenant_id, currency, ${TEST_FUNDS}::numeric, balance, 'deposit', 'test funding ' || gen_random_uuid()
    from funded`.execute(db)
}
