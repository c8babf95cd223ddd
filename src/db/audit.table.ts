import type { Timestamp } from './column-types.ts'

/** One audit record (docs/operations.md, "Audit trail"): never updated or deleted. */
export interface AuditRecordTable {
  /** The record's place in the chain, from 1. */
  seq: string
  uid: string
  created_at: Timestamp
  action: string
  actor: Record<string, unknown>
  /** `actor.client_id`, for the `actor_client_id` filter. */
  actor_client_id: string | null
  target_type: string | null
  target_id: string | null
  ip: string | null
  request_id: string | null
  outcome: 'ok' | 'denied' | 'failed'
  details: Record<string, unknown>
  prev_hash: string
  hash: string
}

/** The chain's head: one row, locked by every append. */
export interface AuditChainTable {
  id: boolean
  seq: string
  hash: string
}

/** A client's address allow-list: absent when calls may come from anywhere. */
export interface ClientAllowedAddressTable {
  client_id: string
  cidrs: string[]
  updated_at: Timestamp
}
