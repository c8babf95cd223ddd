import type { Selectable } from 'kysely'

import { decimalFromStore, type DecimalValue, formatDecimalAtLeast, subtract } from '../../../core/decimal.ts'
import { type ListEnvelope, makeHeads, type Page } from '../../../core/lists.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import type { LedgerEntryTable } from '../../../db/schema.ts'
import { ACCOUNT_FIELDS, LEDGER_FIELDS } from './accounts.schemas.ts'

/** An account with its currency's precision (what its decimals are rendered at); `updated_at` null when never used. */
export interface AccountRow {
  tenant_id: string
  currency: string
  balance: string
  hold: string
  updated_at: string | null
  precision: number
}

/** A ledger entry with its currency's precision. */
export type LedgerEntryRow = Selectable<LedgerEntryTable> & { precision: number }

/** Decimals at their currency's precision: `100` USD is `100.00`, IRR has none (docs/accounts.md). */
const atPrecision = (value: DecimalValue, precision: number) => formatDecimalAtLeast(value, Math.max(precision, 0))

/** An account as REST renders it (docs/api.md, "Accounts"). `updated_at` is null for an account never used. */
export function accountRecord(row: AccountRow) {
  const balance = decimalFromStore(row.balance)
  const hold = decimalFromStore(row.hold)
  return {
    currency: row.currency,
    balance: atPrecision(balance, row.precision),
    hold: atPrecision(hold, row.precision),
    available: atPrecision(subtract(balance, hold), row.precision),
    updated_at: row.updated_at === null ? null : formatTimestamp(row.updated_at),
  }
}
export type AccountRecord = ReturnType<typeof accountRecord>

/** A ledger entry as REST renders it. */
export function ledgerEntryRecord(row: LedgerEntryRow) {
  return {
    uid: row.uid,
    created_at: formatTimestamp(row.created_at),
    tenant_id: row.tenant_id,
    currency: row.currency,
    amount: atPrecision(decimalFromStore(row.amount), row.precision),
    balance_after: atPrecision(decimalFromStore(row.balance_after), row.precision),
    kind: row.kind,
    order_uid: row.order_uid,
    trade_uid: row.trade_uid,
    reference: row.reference,
  }
}
export type LedgerEntryRecord = ReturnType<typeof ledgerEntryRecord>

const accountHeads = makeHeads(ACCOUNT_FIELDS)
const ledgerHeads = makeHeads(LEDGER_FIELDS)

export function accountEnvelope(page: Page<AccountRow>): ListEnvelope<AccountRecord> {
  return { heads: accountHeads, items: page.rows.map(accountRecord), total: page.total, offset: page.offset, limit: page.limit }
}

export function ledgerEnvelope(page: Page<LedgerEntryRow>): ListEnvelope<LedgerEntryRecord> {
  return { heads: ledgerHeads, items: page.rows.map(ledgerEntryRecord), total: page.total, offset: page.offset, limit: page.limit }
}
