import { sql, type Kysely } from 'kysely'

// Frozen: never edit a migration that has shipped; add a new file instead.

/**
 * Fees on fills (docs/accounts.md, "Fees on fills"): each fill carries the fee its order paid for
 * it and the currency it was paid in, written by the matching pass's one insert. Fills stored
 * before are given theirs from the ledger: the negated `fee` entry of the same order and trade
 * (none: the fee was zero), in the symbol's quote currency.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table fills add column fee numeric not null default 0 check (fee >= 0), add column fee_currency text`.execute(db)
  await sql`
    update fills f set
      fee = coalesce(
        (select -sum(l.amount) from ledger_entries l where l.order_uid = f.order_uid and l.trade_uid = f.trade_uid and l.kind = 'fee'), 0),
      fee_currency = s.quote
    from symbols s
    where s.symbol = f.symbol`.execute(db)
  await sql`alter table fills alter column fee drop default, alter column fee_currency set not null`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table fills drop column fee_currency, drop column fee`.execute(db)
}
