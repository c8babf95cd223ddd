import { sql } from 'kysely'

import type { Db } from '../../../db/database.ts'

// The fees collected and the check's totals (docs/accounts.md, "The check"): read-only, apart from the write path.

export async function collectedFeeTotals(db: Db): Promise<{ currency: string; amount: string; precision: number }[]> {
  return db
    .selectFrom('collected_fees as f')
    .innerJoin('currencies as c', 'c.code', 'f.currency')
    .select(['f.currency', sql<string>`sum(f.amount)::text`.as('amount'), 'c.precision'])
    .groupBy(['f.currency', 'c.precision'])
    .orderBy('f.currency')
    .execute()
}

export interface ConservationRow {
  currency: string
  balances: string
  fees: string
  deposits: string
  withdrawals: string
}

/** Per currency: Σ balances, Σ collected fees, Σ deposits, Σ withdrawals (as a positive amount). */
export async function conservationTotals(db: Db): Promise<ConservationRow[]> {
  const { rows } = await sql<ConservationRow>`
    with codes as (
      select currency from accounts union select currency from collected_fees union select currency from ledger_entries
    )
    select k.currency,
      coalesce((select sum(balance) from accounts a where a.currency = k.currency), 0)::text as balances,
      coalesce((select sum(amount) from collected_fees f where f.currency = k.currency), 0)::text as fees,
      coalesce((select sum(amount) from ledger_entries l where l.currency = k.currency and l.kind = 'deposit'), 0)::text as deposits,
      coalesce((select -sum(amount) from ledger_entries l where l.currency = k.currency and l.kind = 'withdrawal'), 0)::text as withdrawals
    from codes k order by k.currency`.execute(db)
  return rows
}

/** Accounts whose balance is not the sum of their ledger, with both. */
export async function ledgerMismatches(db: Db): Promise<{ tenant_id: string; currency: string; balance: string; ledger: string }[]> {
  const { rows } = await sql<{ tenant_id: string; currency: string; balance: string; ledger: string }>`
    select a.tenant_id, a.currency, a.balance::text as balance, coalesce(l.total, 0)::text as ledger
    from accounts a
    left join (select tenant_id, currency, sum(amount) as total from ledger_entries group by tenant_id, currency) l
      on l.tenant_id = a.tenant_id and l.currency = a.currency
    where a.balance <> coalesce(l.total, 0)
    order by a.tenant_id, a.currency`.execute(db)
  return rows
}

/** Orders that ended (filled, cancelled) still holding funds: a hold must be released when its order ends (a pending stop has not). */
export async function endedOrdersHolding(db: Db): Promise<{ uid: string; tenant_id: string; currency: string | null; hold: string; status: string }[]> {
  const { rows } = await sql<{ uid: string; tenant_id: string; currency: string | null; hold: string; status: string }>`
    select uid, tenant_id, hold_currency as currency, hold::text as hold, status from orders
    where hold > 0 and status not in ('open', 'partially_filled', 'pending') order by tenant_id, uid limit 1000`.execute(db)
  return rows
}

/**
 * Accounts whose hold is not the sum of their open and pending orders' holds and pending
 * withdrawals' amounts (and such holds with no account), with both.
 */
export async function holdMismatches(db: Db): Promise<{ tenant_id: string; currency: string; hold: string; orders: string }[]> {
  const { rows } = await sql<{ tenant_id: string; currency: string; hold: string; orders: string }>`
    with held as (
      select tenant_id, currency, sum(amount) as total from (
        select tenant_id, hold_currency as currency, hold as amount from orders where hold > 0 and status in ('open', 'partially_filled', 'pending')
        union all
        select tenant_id, currency, amount from withdrawals where status = 'pending'
      ) h group by tenant_id, currency
    )
    select coalesce(a.tenant_id, h.tenant_id) as tenant_id, coalesce(a.currency, h.currency) as currency,
      coalesce(a.hold, 0)::text as hold, coalesce(h.total, 0)::text as orders
    from accounts a full join held h on h.tenant_id = a.tenant_id and h.currency = a.currency
    where coalesce(a.hold, 0) <> coalesce(h.total, 0)
    order by 1, 2`.execute(db)
  return rows
}
