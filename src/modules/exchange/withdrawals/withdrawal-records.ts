import type { Selectable } from 'kysely'

import { decimalFromStore, formatDecimalAtLeast } from '../../../core/decimal.ts'
import { type ListEnvelope, makeHeads, type Page } from '../../../core/lists.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import type { WithdrawalDestinationTable, WithdrawalTable } from '../../../db/withdrawals.table.ts'
import { DESTINATION_FIELDS, WITHDRAWAL_FIELDS } from './withdrawals.schemas.ts'

export type DestinationRow = Selectable<WithdrawalDestinationTable>
/** A withdrawal with its currency's precision (what its amount is rendered at). */
export type WithdrawalRow = Selectable<WithdrawalTable> & { precision: number }

/** A destination as both faces render it (docs/api.md, "Withdrawals"). */
export function destinationRecord(row: DestinationRow) {
  return {
    uid: row.uid,
    tenant_id: row.tenant_id,
    currency: row.currency,
    label: row.label,
    iban: row.iban,
    created_at: formatTimestamp(row.created_at),
  }
}
export type DestinationRecord = ReturnType<typeof destinationRecord>

/** A withdrawal as both faces (and its `withdrawal` events) render it. `requested_by` stays inside. */
export function withdrawalRecord(row: WithdrawalRow) {
  return {
    uid: row.uid,
    tenant_id: row.tenant_id,
    currency: row.currency,
    amount: formatDecimalAtLeast(decimalFromStore(row.amount), Math.max(row.precision, 0)),
    destination_uid: row.destination_uid,
    reference: row.reference,
    status: row.status,
    approvals: row.approvals.map((a) => ({ client_id: a.client_id, created_at: formatTimestamp(a.created_at), reason: a.reason })),
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
    decided_at: row.decided_at === null ? null : formatTimestamp(row.decided_at),
    reason: row.reason,
  }
}
export type WithdrawalRecord = ReturnType<typeof withdrawalRecord>

const destinationHeads = makeHeads(DESTINATION_FIELDS)
const withdrawalHeads = makeHeads(WITHDRAWAL_FIELDS)

export function destinationEnvelope(page: Page<DestinationRow>): ListEnvelope<DestinationRecord> {
  return { heads: destinationHeads, items: page.rows.map(destinationRecord), total: page.total, offset: page.offset, limit: page.limit }
}

export function withdrawalEnvelope(page: Page<WithdrawalRow>): ListEnvelope<WithdrawalRecord> {
  return { heads: withdrawalHeads, items: page.rows.map(withdrawalRecord), total: page.total, offset: page.offset, limit: page.limit }
}
