import type { ColumnType, Generated } from 'kysely'

import type { Timestamp } from './column-types.ts'

/** A tenant's webhook endpoint (migrations/2026-12-12T00-00_webhooks.ts, docs/webhooks.md). */
export interface WebhookEndpointTable {
  uid: string
  tenant_id: string
  /** The client that created it; `scopes` are that client's when it last chose `events`. */
  client_id: string
  scopes: string[]
  url: string
  events: string[]
  description: Generated<string>
  is_active: Generated<boolean>
  disabled_reason: string | null
  /** `whsec_…`, encrypted (AES-256-GCM) when KEY_ENCRYPTION_KEY is set. */
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: Timestamp | null
  /** The last sequence of the tenant's stream delivered or passed over. */
  cursor: ColumnType<number, number, number>
  /** Failed attempts at the event after `cursor`. */
  failures: Generated<number>
  next_attempt_at: Timestamp | null
  lease_owner: string | null
  lease_expires_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** One delivery attempt of one event to one endpoint. */
export interface WebhookDeliveryTable {
  id: Generated<number>
  endpoint_uid: string
  event_sequence: ColumnType<number, number, number>
  attempt: number
  status_code: number | null
  duration_ms: number
  error: string | null
  created_at: Timestamp
  next_attempt_at: Timestamp | null
}
