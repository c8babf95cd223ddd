import { type ListEnvelope, makeHeads, type Page } from '../../../core/lists.ts'
import { formatTimestamp } from '../../../core/timestamps.ts'
import type { DeliveryRow, EndpointRow } from './webhooks.repository.ts'
import { DELIVERY_FIELDS, WEBHOOK_FIELDS } from './webhooks.schemas.ts'

/** An endpoint as both faces render it: never its secret (only `withSecret`, on create and rotate). */
export function webhookRecord(row: EndpointRow) {
  return {
    uid: row.uid,
    url: row.url,
    events: row.events,
    description: row.description,
    is_active: row.is_active,
    disabled_reason: row.disabled_reason,
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  }
}
export type WebhookRecord = ReturnType<typeof webhookRecord>

export const withSecret = (row: EndpointRow, secret: string) => ({ ...webhookRecord(row), secret })

export function deliveryRecord(row: DeliveryRow) {
  return {
    event_sequence: row.event_sequence,
    attempt: row.attempt,
    status_code: row.status_code,
    duration_ms: row.duration_ms,
    error: row.error,
    created_at: formatTimestamp(row.created_at),
    next_attempt_at: row.next_attempt_at === null ? null : formatTimestamp(row.next_attempt_at),
  }
}
export type DeliveryRecord = ReturnType<typeof deliveryRecord>

const webhookHeads = makeHeads(WEBHOOK_FIELDS)
const deliveryHeads = makeHeads(DELIVERY_FIELDS)

export function webhookEnvelope(page: Page<EndpointRow>): ListEnvelope<WebhookRecord> {
  return { heads: webhookHeads, items: page.rows.map(webhookRecord), total: page.total, offset: page.offset, limit: page.limit }
}

export function deliveryEnvelope(page: Page<DeliveryRow>): ListEnvelope<DeliveryRecord> {
  return { heads: deliveryHeads, items: page.rows.map(deliveryRecord), total: page.total, offset: page.offset, limit: page.limit }
}
