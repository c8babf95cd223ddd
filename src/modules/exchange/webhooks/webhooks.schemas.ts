import { z } from 'zod'

import { intParam, MAX_LIMIT } from '../../../core/lists.ts'
import { listEnvelopeSchema, timestampText, uuidText } from '../../../core/response-schemas.ts'
import { customIssue } from '../../../core/validation.ts'
import { TENANT_EVENT_SCOPES } from '../events/event-payloads.ts'
import { sequenceParam } from '../events/events.schemas.ts'

/** An endpoint's fields, in order (docs/api.md, "Webhooks"); `secret` only on create and rotate. */
export const WEBHOOK_FIELDS = ['uid', 'url', 'events', 'description', 'is_active', 'disabled_reason', 'created_at', 'updated_at'] as const
export const DELIVERY_FIELDS = ['event_sequence', 'attempt', 'status_code', 'duration_ms', 'error', 'created_at', 'next_attempt_at'] as const

/** The tenant stream's types, as declared with their scopes: a type declared there is accepted here. */
export const WEBHOOK_EVENT_TYPES = Object.keys(TENANT_EVENT_SCOPES) as [keyof typeof TENANT_EVENT_SCOPES, ...(keyof typeof TENANT_EVENT_SCOPES)[]]

export const MAX_WEBHOOKS_PER_TENANT = 10
export const MAX_URL_LENGTH = 2048
export const MAX_DESCRIPTION_LENGTH = 500

const url = z
  .string()
  .max(MAX_URL_LENGTH, { abort: true })
  .superRefine((value, ctx) => {
    let parsed: URL | undefined
    try {
      parsed = new URL(value)
    } catch {}
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
      customIssue(ctx, { type: 'value_error.url', msg: 'invalid or missing URL scheme', input: value })
    } else if (parsed.username !== '' || parsed.password !== '') {
      customIssue(ctx, { type: 'value_error.url.userinfo', msg: 'a URL may not carry a user or a password', input: value })
    }
  })
  .meta({
    description: 'Where events are POSTed: `https` (plain `http` only where the service allows it), never a private address.',
    example: 'https://hooks.bank.example/exchange',
  })

const events = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length * 2, { abort: true })
  .transform((types) => [...new Set(types)])
  .meta({ description: 'The tenant-stream event types to deliver (at least one); each needs the scope that reads it.', example: ['order.updated', 'fill'] })

const description = z
  .string()
  .max(MAX_DESCRIPTION_LENGTH, { abort: true })
  .meta({ description: 'Free text for the bank, at most 500 characters.', example: 'Back office: fills' })

/** `POST /api/exchange/v1/webhooks`. */
export const createWebhookBody = z.strictObject({ url, events, description: description.default('') }).meta({ id: 'WebhookInput' })

/** `PATCH /api/exchange/v1/webhooks/<uid>`: what is given changes. `is_active: true` resumes a disabled endpoint from its cursor. */
export const updateWebhookBody = z
  .strictObject({
    url: url.optional(),
    events: events.optional(),
    description: description.optional(),
    is_active: z.boolean().optional().meta({ description: 'false pauses deliveries; true resumes them where they stopped.' }),
  })
  .meta({ id: 'WebhookUpdate' })

/** `POST /api/exchange/v1/webhooks/<uid>/replay`. */
export const replayWebhookBody = z
  .strictObject({
    after: sequenceParam.meta({
      override: { type: 'integer', minimum: 0 },
      description: 'Deliver again every wanted event after this sequence of the tenant stream, in order.',
      example: 41,
    }),
  })
  .meta({ id: 'WebhookReplay' })

export const webhookListQuery = z.strictObject({
  offset: intParam(0, undefined, 0, 'Records to skip.'),
  limit: intParam(1, MAX_LIMIT, MAX_LIMIT, 'Records per page, at most 100.'),
})

export const webhookParams = z.object({ uid: z.string().meta({ description: "The webhook's uid.", example: '0193a5b2-7c1e-7d4f-8a2b-3c4d5e6f7a8b' }) })

// --- Answers ---

export const webhookRecordSchema = z
  .object({
    uid: uuidText,
    url: z.string(),
    events: z.array(z.string()).meta({ example: ['order.updated', 'fill'] }),
    description: z.string(),
    is_active: z.boolean().meta({ description: 'false: paused, or disabled after its last retry failed (see `disabled_reason`).' }),
    disabled_reason: z.string().nullable().meta({ description: 'Why deliveries stopped after the last retry; null otherwise.' }),
    created_at: timestampText,
    updated_at: timestampText,
  })
  .meta({ id: 'Webhook' })

export const webhookWithSecretSchema = webhookRecordSchema
  .extend({
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
      .meta({
        description: 'Signs every delivery (Standard Webhooks). Shown only here: store it now.',
        example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3nL8H4CmTfs=',
      }),
  })
  .meta({ id: 'WebhookWithSecret' })

export const deliveryRecordSchema = z
  .object({
    event_sequence: z.int().min(1).meta({ description: 'The event of the tenant stream.' }),
    attempt: z.int().min(1).meta({ description: '1 for the first try of this event, 2 for the first retry, …' }),
    status_code: z.int().nullable().meta({ description: "The receiver's status; null when none came (refused, unreachable, timed out)." }),
    duration_ms: z.int().min(0),
    error: z.string().nullable().meta({ description: 'Why it was not delivered; null for a 2xx.' }),
    created_at: timestampText,
    next_attempt_at: timestampText.nullable().meta({ description: 'When the event is tried again; null when delivered, or when this was the last try.' }),
  })
  .meta({ id: 'WebhookDelivery' })

export const webhookListSchema = listEnvelopeSchema('WebhookList', webhookRecordSchema, WEBHOOK_FIELDS)
export const deliveryListSchema = listEnvelopeSchema('WebhookDeliveryList', deliveryRecordSchema, DELIVERY_FIELDS)
