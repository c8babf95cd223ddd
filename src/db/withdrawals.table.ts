import type { Decimal, Timestamp } from './column-types.ts'

/** The tables of destinations and withdrawals (migrations/2026-12-09T00-00_withdrawals.ts). */

export interface WithdrawalDestinationTable {
  uid: string
  tenant_id: string
  currency: string
  label: string
  /** Electronic form: upper case, no spaces. */
  iban: string
  created_at: Timestamp
}

export type WithdrawalStatus = 'pending' | 'completed' | 'rejected' | 'cancelled'

/** One approval of a withdrawal, as kept in its `approvals` column. */
export interface StoredApproval {
  client_id: string
  created_at: string
  reason: string | null
}

export interface WithdrawalTable {
  uid: string
  tenant_id: string
  currency: string
  amount: Decimal
  destination_uid: string
  reference: string
  status: WithdrawalStatus
  /** The client that asked for it: it never approves its own. */
  requested_by: string
  approvals: StoredApproval[]
  reason: string | null
  created_at: Timestamp
  updated_at: Timestamp
  decided_at: Timestamp | null
}

export interface WithdrawalLimitTable {
  tenant_id: string
  currency: string
  daily: Decimal
  updated_at: Timestamp
}

export interface WithdrawalThresholdTable {
  currency: string
  approval_threshold: Decimal
  updated_at: Timestamp
}
