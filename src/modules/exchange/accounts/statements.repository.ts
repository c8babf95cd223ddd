import { sql } from 'kysely'

import type { Db } from '../../../db/database.ts'
import type { LedgerEntryTable } from '../../../db/schema.ts'
import type { LedgerEntryRow } from './account-records.ts'

/** A statement's figures, as PostgreSQL sums them (exact `numeric` text). */
export interface StatementTotals {
  opening: string
  credits: string
  debits: string
  count: number
  credit_count: number
  debit_count: number
}

/**
 * One account's figures over [from, to) in one statement (docs/accounts.md, "Statements"): the
 * balance at `from` is the sum of every entry before it, so opening + credits − debits is the
 * balance at `to` by construction (a balance is the sum of its ledger). Summed rather than read
 * from `balance_after`: entries of concurrent passes commit in lock order, which a `created_at`
 * written at each pass's start need not follow. One index range (tenant, currency, created_at).
 */
export async function statementTotals(db: Db, tenantId: string, currency: string, from: string, to: string): Promise<StatementTotals> {
  const { rows } = await sql<StatementTotals>`
    select
      coalesce(sum(amount) filter (where created_at < ${from}::timestamp(6)), 0)::text as opening,
      coalesce(sum(amount) filter (where created_at >= ${from}::timestamp(6) and amount > 0), 0)::text as credits,
      coalesce(-sum(amount) filter (where created_at >= ${from}::timestamp(6) and amount < 0), 0)::text as debits,
      (count(*) filter (where created_at >= ${from}::timestamp(6)))::int8 as count,
      (count(*) filter (where created_at >= ${from}::timestamp(6) and amount > 0))::int8 as credit_count,
      (count(*) filter (where created_at >= ${from}::timestamp(6) and amount < 0))::int8 as debit_count
    from ledger_entries
    where tenant_id = ${tenantId} and currency = ${currency} and created_at < ${to}::timestamp(6)`.execute(db)
  return rows[0]!
}

/** Where a page of entries starts: after this (created_at, uid). */
export interface EntryKey {
  created_at: string
  uid: string
}

const BEFORE_ANY_UID = '00000000-0000-0000-0000-000000000000'

/** What a streamed statement reads of an entry: its tenant and currency are the statement's. */
export interface StatementEntry {
  uid: string
  /** As stored (`2026-11-01 00:00:00.000000`). */
  created_at: string
  /** Exact `numeric` text. */
  amount: string
  balance_after: string
  kind: LedgerEntryTable['kind']
  order_uid: string | null
  trade_uid: string | null
  reference: string | null
}

/**
 * The next `limit` entries of one account after `after` (or from `from`) and before `to`, oldest
 * first: a keyset page over ledger_entries_tenant_currency_created_idx, so each page costs its own
 * rows whatever the account's history, and a statement holds one page at a time.
 */
export async function statementEntryRows(
  db: Db,
  tenantId: string,
  currency: string,
  range: { from: string; to: string },
  after: EntryKey | undefined,
  limit: number,
): Promise<StatementEntry[]> {
  const key = after ?? { created_at: range.from, uid: BEFORE_ANY_UID }
  const { rows } = await sql<StatementEntry>`
    select uid, created_at, amount::text as amount, balance_after::text as balance_after, kind, order_uid, trade_uid, reference
    from ledger_entries
    where tenant_id = ${tenantId} and currency = ${currency}
      and (created_at, uid) > (${key.created_at}::timestamp(6), ${key.uid}::uuid)
      and created_at >= ${range.from}::timestamp(6) and created_at < ${range.to}::timestamp(6)
    order by created_at, uid
    limit ${limit}`.execute(db)
  return rows
}

/** A page of entries as the ledger's records are built from (GraphQL's `AccountStatement.entries`). */
export async function statementEntryPage(
  db: Db,
  tenantId: string,
  currency: string,
  range: { from: string; to: string },
  after: EntryKey | undefined,
  limit: number,
  precision: number,
): Promise<LedgerEntryRow[]> {
  const rows = await statementEntryRows(db, tenantId, currency, range, after, limit)
  return rows.map((row) => ({ ...row, tenant_id: tenantId, currency, precision }))
}

/** The key of one entry of the account in [from, to): where a page after it starts (undefined when it is none). */
export async function entryKey(db: Db, tenantId: string, currency: string, range: { from: string; to: string }, uid: string): Promise<EntryKey | undefined> {
  const { rows } = await sql<EntryKey>`
    select created_at, uid from ledger_entries
    where uid = ${uid}::uuid and tenant_id = ${tenantId} and currency = ${currency}
      and created_at >= ${range.from}::timestamp(6) and created_at < ${range.to}::timestamp(6)`.execute(db)
  return rows[0]
}
